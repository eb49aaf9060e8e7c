// Secrets: one pass over each line, trying the known token shapes at each
// word start and, after each `=` or `:`, the generic "key = random value".
// The patterns lean towards shapes real issuers use (fixed prefixes and
// lengths), and the generic check wants a long random-looking run, so that
// ordinary notes ("cache_key = user_profile_v2") are not held back.
#include "store/secrets.hpp"

#include "base/utf8.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace engram::store {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_alnum(c) || c == '_' || c == '-'; }
bool is_identifier(char c) { return is_alnum(c) || c == '_' || c == '-' || c == '.'; }
bool is_token_value(char c) {
  return is_alnum(c) || c == '_' || c == '-' || c == '+' || c == '/' || c == '=' || c == '.' ||
         c == '~';
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Runs longer than this are not looked at further: every shape below is
// decided within it, and the cap keeps a hostile line from costing n².
constexpr std::size_t k_max_run = 256;

// How many characters from `pos` satisfy `pred` (at most k_max_run).
template <typename Pred>
std::size_t run_length(std::string_view line, std::size_t pos, Pred pred) {
  std::size_t n = 0;
  while (n < k_max_run && pos + n < line.size() && pred(line[pos + n])) {
    ++n;
  }
  return n;
}

bool has_digit_and_letter(std::string_view text) {
  const bool digit = std::any_of(text.begin(), text.end(), is_digit);
  const bool letter = std::any_of(text.begin(), text.end(), [](char c) { return is_alnum(c) && !is_digit(c); });
  return digit && letter;
}

bool has_upper_and_lower(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; }) &&
         std::any_of(text.begin(), text.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// A known token shape starting at `i` (a word start), or nullptr.
const char* token_at(std::string_view line, std::size_t i) {
  const auto rest = line.substr(i);
  // AWS access key ids: AKIA (long-term) or ASIA (temporary) and 16 more.
  if ((rest.starts_with("AKIA") || rest.starts_with("ASIA")) &&
      run_length(line, i + 4, is_upper_or_digit) == 16 &&
      (i + 20 == line.size() || !is_alnum(line[i + 20]))) {
    return "an AWS access key id";
  }
  // GitHub: classic tokens (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained ones.
  if (rest.size() > 4 && rest.starts_with("gh") && rest[3] == '_' &&
      std::string_view("pousr").find(rest[2]) != std::string_view::npos &&
      run_length(line, i + 4, is_alnum) >= 30) {
    return "a GitHub token";
  }
  if (rest.starts_with("github_pat_") &&
      run_length(line, i + 11, [](char c) { return is_alnum(c) || c == '_'; }) >= 22) {
    return "a GitHub token";
  }
  // Slack: xoxb-, xoxp-, xoxa-, xoxr-, xoxs-.
  if (rest.size() > 5 && rest.starts_with("xox") &&
      std::string_view("baprs").find(rest[3]) != std::string_view::npos && rest[4] == '-' &&
      run_length(line, i + 5, [](char c) { return is_alnum(c) || c == '-'; }) >= 10) {
    return "a Slack token";
  }
  // OpenAI (and look-alikes): sk-, sk-proj-, then a long random run. Real
  // keys are mixed-case base62; hyphenated words ("sk-learn-pipeline-v2")
  // have no capitals.
  if (rest.starts_with("sk-")) {
    const auto n = run_length(line, i + 3, is_word);
    if (n >= 20 && has_digit_and_letter(line.substr(i + 3, n)) &&
        has_upper_and_lower(line.substr(i + 3, n)) &&
        run_length(line, i + 3, [](char c) { return is_alnum(c) || c == '-'; }) >= 20) {
      return "an OpenAI API key";
    }
  }
  return nullptr;
}

// True when a name (lowercased) is one that holds a credential.
bool is_secret_name(std::string_view name) {
  constexpr std::array<std::string_view, 8> k_endings = {
      "key", "secret", "token", "password", "passwd", "pwd", "credential", "credentials"};
  return std::any_of(k_endings.begin(), k_endings.end(),
                     [&](std::string_view ending) { return name.ends_with(ending); });
}

// The generic check at an `=` or `:` at `at`: a credential-like name before it,
// a long random-looking value after it.
bool assignment_at(std::string_view line, std::size_t at) {
  std::size_t end = at;
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
    --end;
  }
  if (end > 0 && (line[end - 1] == '"' || line[end - 1] == '\'')) {
    --end;
  }
  std::size_t begin = end;
  while (begin > 0 && is_identifier(line[begin - 1]) && end - begin < 64) {
    --begin;
  }
  if (begin == end) {
    return false;
  }
  std::string name;
  for (char c : line.substr(begin, end - begin)) {
    name += lower(c);
  }
  if (!is_secret_name(name)) {
    return false;
  }
  std::size_t pos = at + 1;
  if (line[at] == '=' && pos < line.size() && line[pos] == '=') {
    return false; // a comparison, not an assignment
  }
  pos += run_length(line, pos, [](char c) { return c == ' ' || c == '\t'; });
  if (pos < line.size() && (line[pos] == '"' || line[pos] == '\'' || line[pos] == '`')) {
    ++pos;
  }
  const auto value = line.substr(pos, run_length(line, pos, is_token_value));
  if (value.size() < 16 || !has_digit_and_letter(value)) {
    return false;
  }
  // Identifiers made of short words (user_profile_v2_2024) are not random.
  std::size_t longest = 0;
  for (std::size_t i = 0; i < value.size();) {
    const auto n = run_length(value, i, is_alnum);
    longest = std::max(longest, n);
    i += n == 0 ? 1 : n;
  }
  return longest >= 16 && entropy_bits(value) >= 3.3;
}

// The kind of credential on one line, or nullptr.
const char* secret_in_line(std::string_view line) {
  if (const auto begin = line.find("-----BEGIN "); begin != std::string_view::npos &&
                                                   line.find("PRIVATE KEY", begin) != std::string_view::npos) {
    return "a private key";
  }
  // Known shapes first, over the whole line: `OPENAI_API_KEY=sk-...` is
  // reported as the key it is, not as a random value.
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if ((i == 0 || !is_alnum(line[i - 1])) && (c == 'A' || c == 'g' || c == 'x' || c == 's')) {
      if (const char* kind = token_at(line, i)) {
        return kind;
      }
    }
  }
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((line[i] == '=' || line[i] == ':') && assignment_at(line, i)) {
      return "a high-entropy value assigned to a key, secret, token or password";
    }
  }
  return nullptr;
}

} // namespace

double entropy_bits(std::string_view text) {
  if (text.empty()) {
    return 0.0;
  }
  std::array<std::size_t, 256> counts{};
  for (char c : text) {
    ++counts[static_cast<unsigned char>(c)];
  }
  double bits = 0.0;
  const auto total = static_cast<double>(text.size());
  for (const auto count : counts) {
    if (count != 0) {
      const double p = static_cast<double>(count) / total;
      bits -= p * std::log2(p);
    }
  }
  return bits;
}

std::optional<SecretFinding> find_secret(std::string_view text) {
  int line_number = 1;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    if (const char* kind = secret_in_line(text.substr(pos, end - pos))) {
      return SecretFinding{line_number, kind};
    }
    pos = end + 1;
    ++line_number;
  }
  return std::nullopt;
}

} // namespace engram::store
