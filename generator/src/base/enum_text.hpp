// Enums are text only at the edges (the command line, model and campaign files, JSON, the
// report): each has a `to_string` and a list of its values, and `named` reads the text back.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dualrate {

// The value of `all` whose to_string is `text`, or none.
template <typename E, std::size_t N>
std::optional<E> named(const std::array<E, N>& all, const std::string& text) {
  for (const E e : all)
    if (text == to_string(e)) return e;
  return std::nullopt;
}

// The texts of `all`, in its order.
template <typename E, std::size_t N>
std::vector<std::string> names(const std::array<E, N>& all) {
  std::vector<std::string> texts;
  for (const E e : all) texts.emplace_back(to_string(e));
  return texts;
}

}  // namespace dualrate
