// Test helper: random strings joined from given pieces (for comparing a fast path with its
// reference on inputs built from the cases that matter to it).
#pragma once

#include <cstddef>
#include <iterator>
#include <random>
#include <string>

namespace langsift_test {

/// Up to max_pieces - 1 pieces of `pieces` (an array or container of strings), chosen by rng.
template <class Pieces>
std::string random_join(const Pieces& pieces, std::mt19937& rng, std::size_t max_pieces) {
  std::string s;
  const std::size_t n = rng() % max_pieces;
  for (std::size_t k = 0; k < n; ++k) s += pieces[rng() % std::size(pieces)];
  return s;
}

}  // namespace langsift_test
