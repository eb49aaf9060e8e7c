// The two exceptions engram throws: Error (caught per event or per command,
// the process goes on) and Fatal (caught in main, the process exits).
#pragma once

#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace engram {

// A failure of one operation; the caller reports it and carries on.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  template <typename... Args>
  explicit Error(fmt::format_string<Args...> format, Args&&... args)
      : std::runtime_error(fmt::format(format, std::forward<Args>(args)...)) {}
};

// A failure that ends the process with a message and a non-zero exit status.
class Fatal : public std::runtime_error {
public:
  explicit Fatal(const std::string& message) : std::runtime_error(message) {}
  template <typename... Args>
  explicit Fatal(fmt::format_string<Args...> format, Args&&... args)
      : std::runtime_error(fmt::format(format, std::forward<Args>(args)...)) {}
};

} // namespace engram
