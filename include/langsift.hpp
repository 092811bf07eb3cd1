// langsift — language and encoding identification for web crawlers. The umbrella header:
// include this, or only the stage you need (each stage's input and output types are at the top
// of its header).
#pragma once

#include "langsift/common.hpp"
#include "langsift/version.hpp"
#include "langsift/unicode.hpp"   // code point properties, UTF-8 decoding
#include "langsift/script.hpp"    // script runs, single-language scripts
#include "langsift/ngram.hpp"     // n-gram features
#include "langsift/model.hpp"     // model files
#include "langsift/detector.hpp"  // text -> up to three languages with percent and bytes
#include "langsift/spans.hpp"     // text -> where each language is (byte spans), kept text
#include "langsift/language_codes.hpp"  // ISO 639-1 <-> ISO 639-3
#include "langsift/filter.hpp"    // keep/drop by language, bytes, percent
#include "langsift/options.hpp"   // what users write: code lists, code styles, filter configuration
#include "langsift/uri.hpp"       // URI parsing and reference resolution
#include "langsift/html.hpp"      // HTML -> text, title, lang attributes, out-links
#include "langsift/encoding.hpp"  // bytes -> encoding -> UTF-8 (links langsift::encoding: ICU + uchardet)
#include "langsift/page.hpp"      // one page: bytes -> encoding -> text -> languages (links langsift::page)
#include "langsift/default_model.hpp"  // the built-in model (links langsift::models)
#include "langsift/url.hpp"            // URL-only classification: parsing, features, models
#include "langsift/url_models.hpp"     // the built-in URL models (links langsift::models)
#include "langsift/frontier.hpp"       // the language-aware crawl frontier
