// uchardet, one handle per thread (reset between uses).
#include <memory>
#include <string>
#include <type_traits>

#include <uchardet/uchardet.h>

#include "detect_parts.hpp"
#include "internal.hpp"

namespace langsift {
inline namespace v1 {
namespace detail {
namespace {

struct uchardet_deleter {
  void operator()(uchardet_t u) const { uchardet_delete(u); }
};

}  // namespace

std::string run_uchardet(const char* p, std::size_t n) {
  thread_local std::unique_ptr<std::remove_pointer_t<uchardet_t>, uchardet_deleter> handle;
  if (!handle) handle.reset(uchardet_new());
  if (!handle) return {};
  uchardet_reset(handle.get());
  if (uchardet_handle_data(handle.get(), p, n) != 0) return {};
  uchardet_data_end(handle.get());
  const char* c = uchardet_get_charset(handle.get());
  return c ? std::string(c) : std::string();
}

}  // namespace detail
}  // namespace v1
}  // namespace langsift
