// langsift._langsift — text in and out: str and bytes arguments taken as UTF-8 or bytes (bounded,
// lone surrogates replaced), language codes held by value, and the strings and numbers results
// show (valid UTF-8, rounded as the JSON lines round).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "langsift/language_codes.hpp"

namespace langsift_py {

namespace py = pybind11;
using namespace langsift;  // within langsift_py: the extension's own namespace

/// A language code held by value (codes are at most 15 bytes; ISO 639-3 forms at most 16).
struct code_value {
  std::array<char, 24> s{};
  std::uint8_t n = 0;
  std::string_view view() const noexcept { return {s.data(), n}; }
  static code_value of(std::string_view c, code_style style) {
    code_value r;
    if (style == code_style::iso639_3) {
      const std::string t = to_iso639_3(c);
      r.n = static_cast<std::uint8_t>(std::min<std::size_t>(t.size(), r.s.size() - 1));
      std::memcpy(r.s.data(), t.data(), r.n);
    } else {
      r.n = static_cast<std::uint8_t>(std::min<std::size_t>(c.size(), r.s.size() - 1));
      std::memcpy(r.s.data(), c.data(), r.n);
    }
    return r;
  }
};

inline py::str to_py(std::string_view s) { return py::str(s.data(), s.size()); }

/// A string taken from input (a WARC header value, a declared charset) as valid UTF-8, as the JSON
/// lines have it (detail::json::utf8_string): each byte of an invalid sequence becomes U+FFFD. So
/// a result's str fields can always be read, and equal its to_dict().
std::string valid_utf8(std::string_view s);

/// valid_utf8(s) as a str.
py::str text_of(std::string_view s);

/// repr() of text_of(s): quoted and escaped as Python quotes a str.
std::string text_repr(std::string_view s);

/// Rounds as `%.3f` does in the JSON lines, so that to_dict() equals json.loads() of them.
double round3(double v);

/// Rounds as `%.4g` does for the probabilities of the JSON lines (detail::json::probabilities_field).
double round4g(double v);

/// `v` formatted with the printf format `f`, for repr().
std::string fmt_float(double v, const char* f = "%.3f");

/// UTF-8 of a Python str, bounded: at most `cap` bytes (cut at a character boundary). Lone
/// surrogates (which UTF-8 cannot hold) become U+FFFD. `view` points into the str or `store`.
struct utf8_text {
  std::string_view view;
  std::string store;
  py::object keep;        // an encoded bytes object `view` points into
  bool truncated = false; // longer than the cap: a prefix
  bool replaced = false;  // lone surrogates were replaced
};

/// The core of take_utf8: `view` and the flags are set; `keep` receives an object `view` points into
/// when it is not the str itself (a prefix, or an encoded copy), else stays empty.
void take_utf8_core(py::handle obj, std::size_t cap, std::string_view& view, py::object& keep, bool& truncated,
                    bool& replaced, const char* fn);

void take_utf8(py::handle obj, std::size_t cap, utf8_text& t, const char* fn);

/// Bytes of a bytes-like object. bytes are immutable and used in place; other buffers are copied
/// (another thread could change them while the GIL is released).
struct byte_input {
  std::string_view view;
  std::string store;
  bool truncated = false;
};

void take_bytes(py::handle obj, std::size_t cap, byte_input& b, const char* fn);

}  // namespace langsift_py
