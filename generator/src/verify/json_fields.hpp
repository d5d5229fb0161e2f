// The fields of verify's JSON (result_json.hpp): numbers at the precision verify reports them
// to, and fields read back where present. Internal to verify/'s JSON conversions.
#pragma once

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "base/enum_text.hpp"

namespace dualrate {

using Json = nlohmann::ordered_json;

// The value a number printed with `format` reads back as: the precision verify reports it to.
inline double printed(double x, const char* format) {
  if (!std::isfinite(x)) return x;
  const std::string text = fmt::format(fmt::runtime(format), x);
  double value = x;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}
inline double significant7(double x) { return printed(x, "{:.6e}"); }
inline double significant6(double x) { return printed(x, "{:.5e}"); }
inline double tenths(double x) { return printed(x, "{:.1f}"); }

inline double number(const Json& j, const char* key, double absent) {
  if (!j.contains(key)) return absent;
  const Json& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
}
template <typename T>
void read(const Json& j, const char* key, T& value) {
  if (j.contains(key)) j.at(key).get_to(value);
}
inline void read(const Json& j, const char* key, double& value) { value = number(j, key, value); }
// An enum written as its text (to_string), one of `all`; another text is an error naming it.
template <typename E, std::size_t N>
void read_named(const Json& j, const char* key, const std::array<E, N>& all, E& value) {
  if (!j.contains(key)) return;
  const std::string text = j.at(key).get<std::string>();
  const std::optional<E> e = named(all, text);
  if (!e) throw std::invalid_argument(fmt::format("verify's JSON: unknown {} '{}'", key, text));
  value = *e;
}
// The same, "" read as none.
template <typename E, std::size_t N>
void read_named(const Json& j, const char* key, const std::array<E, N>& all, std::optional<E>& value) {
  if (!j.contains(key) || j.at(key).get<std::string>().empty()) return;
  value.emplace();
  read_named(j, key, all, *value);
}
template <typename T>
void read(const Json& j, const char* key, std::optional<T>& value) {
  if (!j.contains(key)) return;
  T v{};
  read(j, key, v);
  value = v;
}

// A count within a group of keys that is written: -1 where the program did not report it.
template <typename T>
Json reported(const std::optional<T>& count) {
  return count ? Json(*count) : Json(-1);
}
template <typename T>
void read_reported(const Json& j, const char* key, std::optional<T>& count) {
  read(j, key, count);
  if (count == -1) count.reset();
}

}  // namespace dualrate
