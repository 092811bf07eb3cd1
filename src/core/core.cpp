// langsift::core — the whole core library as one translation unit (as ada's src/ada.cpp and
// simdutf's src/simdutf.cpp are): each implementation header, langsift/impl/x-inl.hpp, defines what
// the public header langsift/x.hpp declares, and is listed here once, in dependency order (what a
// file calls is defined above it). One unit lets the detector's hot path inline across model,
// ngram, script and unicode code (docs/architecture.md, "Headers, implementations, libraries").
// A new implementation header is added here, where its dependencies are.

// Text: code points, scripts, language codes, countries.
#include "langsift/impl/unicode-inl.hpp"
#include "langsift/impl/script-inl.hpp"
#include "langsift/impl/language_codes-inl.hpp"
#include "langsift/impl/country-inl.hpp"

// Models and detection: n-grams, the model, close groups, the staged detector, spans, filters,
// what users write, training.
#include "langsift/impl/ngram-inl.hpp"
#include "langsift/impl/model-inl.hpp"
#include "langsift/impl/close_groups-inl.hpp"
#include "langsift/impl/detector-inl.hpp"
#include "langsift/impl/spans-inl.hpp"
#include "langsift/impl/filter-inl.hpp"
#include "langsift/impl/options-inl.hpp"
#include "langsift/impl/train-inl.hpp"

// URLs: punycode, IDNA, the public suffix list, URI parsing and resolution.
#include "langsift/impl/punycode-inl.hpp"
#include "langsift/impl/idna-inl.hpp"
#include "langsift/impl/psl-inl.hpp"
#include "langsift/impl/uri-inl.hpp"

// HTML: tables and character references, the extractor, the main-content rules.
#include "langsift/impl/html/tables-inl.hpp"
#include "langsift/impl/html/extract-inl.hpp"
#include "langsift/impl/html/main_content-inl.hpp"

// URL classification: WHATWG parsing, features, the model files, the classifier, training.
#include "langsift/impl/url/parse-inl.hpp"
#include "langsift/impl/url/features-inl.hpp"
#include "langsift/impl/url/model_file-inl.hpp"
#include "langsift/impl/url/classify-inl.hpp"
#include "langsift/impl/url_train-inl.hpp"

// The crawl frontier: keys, votes, policy, the key table, the state codec.
#include "langsift/impl/frontier/keys-inl.hpp"
#include "langsift/impl/frontier/votes-inl.hpp"
#include "langsift/impl/frontier/policy-inl.hpp"
#include "langsift/impl/frontier/key_table-inl.hpp"
#include "langsift/impl/frontier/state-inl.hpp"
