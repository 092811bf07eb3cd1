// langsift — implementation of langsift/options.hpp (compiled into langsift::core, or included by
// the header under LANGSIFT_HEADER_ONLY; see langsift/config.hpp).
#pragma once

#include <cstdint>

#include "langsift/options.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/detail/quote.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {

/// A configuration switch: "true" in any ASCII case, white space around it ignored.
inline bool config_flag(const config_getter& get, std::string_view key) {
  const std::optional<std::string> v = get(key);
  return v && iequals(trim_ascii_whitespace(*v), "true");
}

/// A configuration number (options.hpp says which), or false with `message` set.
inline bool config_number(const config_getter& get, std::string_view key, std::uint64_t& out, std::string* message) {
  const std::optional<std::string> v = get(key);
  auto fail = [&](std::string why) {
    if (message) *message = std::string(key) + why;
    return false;
  };
  if (!v) return fail(" is enabled but not set");
  std::string_view s = trim_ascii_whitespace(*v);
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s.find_first_not_of("0123456789") != std::string_view::npos) {
    const std::string_view t = trim_ascii_whitespace(*v);
    if (t.size() > 1 && t[0] == '-' && t.find_first_not_of("0123456789", 1) == std::string_view::npos)
      return fail(": must be >= 0, not " + std::string(t));
    return fail(": not a number: " + quoted_value(*v));
  }
  constexpr std::uint64_t kMax = (std::uint64_t{1} << 63) - 1;
  std::uint64_t n = 0;
  for (const char c : s) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (n > (kMax - d) / 10) return fail(": must be at most " + std::to_string(kMax) + ", not " + quoted_value(*v));
    n = n * 10 + d;
  }
  out = n;
  return true;
}

}  // namespace detail

LANGSIFT_INLINE std::vector<std::string_view> split_code_list(std::string_view list) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && is_code_list_separator(list[i])) ++i;
    std::size_t j = i;
    while (j < list.size() && !is_code_list_separator(list[j])) ++j;
    if (j > i) out.push_back(list.substr(i, j - i));
    i = j;
  }
  return out;
}

LANGSIFT_INLINE std::vector<std::string> parse_code_list(std::string_view list) {
  std::vector<std::string> out;
  for (const std::string_view item : split_code_list(list)) out.push_back(to_iso639_1(item));
  return out;
}

LANGSIFT_INLINE std::optional<code_style> parse_code_style(std::string_view name) noexcept {
  if (name == "iso639-1" || name == "iso639_1" || name == "639-1") return code_style::iso639_1;
  if (name == "iso639-3" || name == "iso639_3" || name == "639-3") return code_style::iso639_3;
  return std::nullopt;
}

LANGSIFT_INLINE status language_filter_from_config(const config_getter& get, language_filter& out, std::string* message) {
  language_filter f;
  if (!detail::config_flag(get, "filter.lang.enable")) {
    out = std::move(f);
    return status::ok;
  }
  if (detail::config_flag(get, "filter.lang.label.enable")) {
    const std::optional<std::string> v = get("filter.lang.label");
    f.labels = parse_code_list(v ? std::string_view(*v) : std::string_view());
    if (f.labels.empty()) {
      if (message) *message = "filter.lang.label is enabled but empty";
      return status::invalid_argument;
    }
    f.use_labels = true;
  }
  std::uint64_t n = 0;
  if (detail::config_flag(get, "filter.lang.minSize.bytes.enable")) {
    if (!detail::config_number(get, "filter.lang.minSize.bytes", n, message)) return status::invalid_argument;
    f.min_bytes = static_cast<std::size_t>(n);
    f.use_min_bytes = true;
  }
  if (detail::config_flag(get, "filter.lang.maxSize.bytes.enable")) {
    if (!detail::config_number(get, "filter.lang.maxSize.bytes", n, message)) return status::invalid_argument;
    f.max_bytes = static_cast<std::size_t>(n);
    f.use_max_bytes = true;
  }
  if (detail::config_flag(get, "filter.lang.minPercentage.limit.enable")) {
    if (!detail::config_number(get, "filter.lang.minPercentage.limit", n, message)) return status::invalid_argument;
    if (n > 100) {
      if (message) *message = "filter.lang.minPercentage.limit must be 0..100, not " + std::to_string(n);
      return status::invalid_argument;
    }
    f.min_percent = static_cast<int>(n);
    f.use_min_percent = true;
  }
  out = std::move(f);
  return status::ok;
}

}  // namespace v1
}  // namespace langsift
