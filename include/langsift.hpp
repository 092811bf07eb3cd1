// langsift — language and encoding identification for web crawlers. The umbrella header:
// include this, or only the stage you need (each stage's input and output types are at the top
// of its header).
#pragma once

#include "langsift/common.hpp"
#include "langsift/version.hpp"
#include "langsift/uri.hpp"       // URI parsing and reference resolution
#include "langsift/html.hpp"      // HTML -> text, title, lang attributes, out-links
#include "langsift/encoding.hpp"  // bytes -> encoding -> UTF-8 (links langsift::encoding: ICU + uchardet)
