// langsift — URL-only language classification (Baykan, Henzinger & Weber 2013): given only a URL,
// which language is the page likely in?
//
//   langsift::url_parts p;  langsift::parse_url("http://www.xn--mnchen-3ya.de/Stadt%C3%A9/", p);
//   // p.host() "www.münchen.de", p.registered_domain() "münchen.de", p.public_suffix() "de",
//   // p.path() "/Stadté/" (percent-decoded to UTF-8)
//   langsift::url_classifier c(&lr_model, &words_model);      // either may be null
//   langsift::url_result r = c.classify("http://www.spiegel.de/politik/");
//   r.language();  // "de";  r.languages[0..r.count) ranked with scores; "und" when nothing is known
//
// Stages, one header each:
//  * url/parse.hpp — parse_url (scheme, host with IDN labels decoded, public suffix / registered
//    domain by the compiled-in Public Suffix List, IPv4/IPv6 literals, path and query
//    percent-decoded to UTF-8);
//  * url/features.hpp — url_extract_features (tokens split at non-letters, lower-cased, stop
//    tokens removed; words; character 3–7-grams of "^token$"; TLD; 2-letter country/language
//    labels in the host; language-code patterns in subdomain, path segment, query parameter and
//    file name; hyphens in the host);
//  * url/model_file.hpp — url_model (a hashed feature → per-language weight table: the generative
//    words model, trained from text corpora, or the discriminative linear model, trained from
//    labelled URLs) and its file format;
//  * url/classify.hpp — url_classifier (the models combined with language-code patterns and an
//    optional host-country hint), and the baselines cctld_language (ccTLD) and
//    cctld_plus_language (ccTLD+). See docs/url.md.
//
// Allocation: parse_url writes into the strings of its url_parts (reused across calls, as the
// classifier's scratch is, they stop growing) and builds temporary strings for a URL without a
// scheme, a percent-encoded host and a non-ASCII host (see parse_url); the classifier allocates a
// second feature buffer where it consults the words model with a configuration of its own (see
// url_classifier). Feature extraction and scoring use fixed buffers.
#pragma once

#include "langsift/common.hpp"
#include "langsift/country.hpp"
#include "langsift/ngram.hpp"
#include "langsift/psl.hpp"
#include "langsift/punycode.hpp"
#include "langsift/unicode.hpp"
#include "langsift/uri.hpp"
#include "langsift/url/classify.hpp"
#include "langsift/url/features.hpp"
#include "langsift/url/model_file.hpp"
#include "langsift/url/parse.hpp"
