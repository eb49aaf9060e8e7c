// Expected<T, E>: a value or the reason there is none, for failures a caller
// is expected to handle (parse errors, diagnostics). Only Error and Fatal throw.
#pragma once

#include <utility>
#include <variant>

namespace engram {

// Wraps an error value so it can be returned where an Expected is wanted.
template <typename E> struct Unexpected {
  E error;
};

// Makes an Unexpected from an error value.
template <typename E> Unexpected<std::decay_t<E>> unexpected(E&& error) {
  return {std::forward<E>(error)};
}

// Holds either a T or an E; check with has_value() before dereferencing.
template <typename T, typename E> class [[nodiscard]] Expected {
public:
  Expected(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
  template <typename U>
  Expected(Unexpected<U> error) : m_state(std::in_place_index<1>, std::move(error.error)) {}

  bool has_value() const { return m_state.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(m_state); }
  const T& value() const& { return std::get<0>(m_state); }
  T&& value() && { return std::get<0>(std::move(m_state)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  E& error() & { return std::get<1>(m_state); }
  const E& error() const& { return std::get<1>(m_state); }

private:
  std::variant<T, E> m_state;
};

} // namespace engram
