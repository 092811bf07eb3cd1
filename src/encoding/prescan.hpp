// Internal: the meta/XML prescan with the raw labels it saw. Not installed.
#pragma once

#include <string>
#include <string_view>

namespace langsift {
inline namespace v1 {
namespace detail {

struct prescan_result {
  std::string label;           ///< the label that decided, as found ("" if none)
  std::string_view encoding;   ///< its canonical name after WHATWG post-processing ("" if none)
  std::string unknown_label;   ///< the first label seen that no encoding has ("" if none)
  bool from_xml = false;       ///< decided by an XML declaration, not a <meta>
};

/// WHATWG prescan of the first 1024 bytes, then the XML declaration.
prescan_result prescan(std::string_view bytes);

}  // namespace detail
}  // namespace v1
}  // namespace langsift
