#include "base/diagnostics.hpp"

#include <algorithm>
#include <cctype>

namespace dualrate {

std::string ModelError::format() const {
  std::string s =
      loc_.file + ":" + std::to_string(loc_.line) + ":" + std::to_string(loc_.column) + ": error: " + what();
  if (!hint_.empty()) s += "\n  hint: " + hint_;
  return s;
}

namespace {

bool same_letter(char x, char y) {
  return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring letters (omgea -> omega) each count one.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same_letter(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  // A plausible typo changes at most a third of the longer name (and at least one character).
  const std::size_t limit = std::max<std::size_t>(1, std::max(name.size(), best.size()) / 3);
  return (!best.empty() && best_distance <= limit) ? best : std::string{};
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates,
                         const std::string& fallback) {
  const std::string c = closest(name, candidates);
  return c.empty() ? fallback : "did you mean '" + c + "'?";
}

}  // namespace dualrate
