#include "fatbin/byte_view.h"

#include <algorithm>

namespace barracuda::fatbin {

std::string ByteView::text(std::uint64_t offset, std::uint64_t length, const std::string& what) const {
  auto bytes = slice(offset, length, what).bytes();
  auto end = std::find(bytes.begin(), bytes.end(), std::byte{0});
  return std::string(reinterpret_cast<const char*>(bytes.data()), static_cast<std::size_t>(end - bytes.begin()));
}

}  // namespace barracuda::fatbin
