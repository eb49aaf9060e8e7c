// Secrets: one pass over each line, trying the issuers' shapes at each word
// start (secret_shapes.hpp), a password inside a URL at each `://`, and
// after each `=` or `:` the generic "key = random value" (its value on the
// next line when the line ends at the `=`); then, across lines, private key
// blocks and the bodies of keys pasted without their header. The generic
// check wants a long random-looking run, so that ordinary notes
// ("cache_key = user_profile_v2") are not held back.
#include "store/secrets.hpp"

#include "store/char_class.hpp"
#include "store/secret_shapes.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace engram::store {
namespace {

using chars::is_alnum;
using chars::is_digit;
using chars::is_lower;
using chars::is_upper;
using chars::run_length;
bool is_identifier(char c) {
  return is_alnum(c) || c == '_' || c == '-' || c == '.';
}
bool is_base64(char c) {
  return is_alnum(c) || c == '+' || c == '/';
}
bool is_token_value(char c) {
  return is_alnum(c) || c == '_' || c == '-' || c == '+' || c == '/' || c == '=' || c == '.' ||
         c == '~';
}
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

char lower(char c) {
  return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}

// What was found in one line: where, in the line, and what.
struct Span {
  std::size_t begin = 0;
  std::size_t length = 0;
  std::string_view kind;
};

constexpr std::string_view k_generic = "a high-entropy value assigned to a key, secret, token or "
                                       "password";
constexpr std::string_view k_password = "a password assigned to a password key";

// A value a configuration holds in its place: `${DB_PASSWORD}`, `<token>`, `****`.
bool is_placeholder(std::string_view value) {
  return value.empty() || value.front() == '$' || value.front() == '<' || value.front() == '{' ||
         value.front() == '%' ||
         std::all_of(value.begin(), value.end(), [](char c) { return c == '*' || c == 'x'; });
}

// True for a key's random value: long, letters and digits, one long run of
// base64 characters (a key may hold `/` and `+`), and varied.
bool looks_random(std::string_view value) {
  if (value.size() < 16 || !std::any_of(value.begin(), value.end(), is_digit) ||
      !std::any_of(value.begin(), value.end(), [](char c) { return is_lower(c) || is_upper(c); })) {
    return false;
  }
  // Identifiers made of short words (user_profile_v2_2024) are not random.
  std::size_t longest = 0;
  for (std::size_t i = 0; i < value.size();) {
    const auto n = run_length(value, i, is_base64);
    longest = std::max(longest, n);
    i += n == 0 ? 1 : n;
  }
  return longest >= 16 && entropy_bits(value) >= 3.3;
}

// True for a password: eight or more characters of three kinds or more.
bool looks_like_password(std::string_view value) {
  if (value.size() < 8 || is_placeholder(value)) {
    return false;
  }
  const int kinds = static_cast<int>(std::any_of(value.begin(), value.end(), is_lower)) +
                    static_cast<int>(std::any_of(value.begin(), value.end(), is_upper)) +
                    static_cast<int>(std::any_of(value.begin(), value.end(), is_digit)) +
                    static_cast<int>(std::any_of(value.begin(), value.end(),
                                                 [](char c) { return !is_alnum(c); }));
  return kinds >= 3;
}

// The name before an `=` or `:` at `at`, lowercased ("" when none).
std::string name_before(std::string_view line, std::size_t at) {
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
  std::string name;
  for (const char c : line.substr(begin, end - begin)) {
    name += lower(c);
  }
  return name;
}

bool ends_with_any(std::string_view name, std::initializer_list<std::string_view> endings) {
  return std::any_of(endings.begin(), endings.end(),
                     [&](std::string_view ending) { return name.ends_with(ending); });
}

// The value of an assignment that starts at `pos` (after the `=`), or the
// first word of `next` when the line ends there (a value wrapped onto the
// next line). `on_next` says which.
std::string_view value_from(std::string_view line, std::size_t pos, std::string_view next,
                            bool& on_next) {
  pos += run_length(line, pos, is_blank);
  if (pos < line.size() && (line[pos] == '"' || line[pos] == '\'' || line[pos] == '`')) {
    ++pos;
  }
  const auto rest = line.substr(std::min(pos, line.size()));
  on_next = std::all_of(rest.begin(), rest.end(),
                        [](char c) { return is_blank(c) || c == '\\' || c == '"' || c == '\''; });
  if (!on_next) {
    return line.substr(pos, run_length(line, pos, [](char c) {
                         return !is_blank(c) && c != '"' && c != '\'' && c != '`' && c != ',' &&
                                c != ';';
                       }));
  }
  std::size_t start = run_length(next, 0, is_blank);
  if (start < next.size() && (next[start] == '"' || next[start] == '\'')) {
    ++start;
  }
  return next.substr(start, run_length(next, start, is_token_value));
}

// The credential of an HTTP Authorization header after its `:` at `at`:
// `Bearer <token>`, `token <token>`, or `Basic <base64 of user:password>`.
std::optional<Span> authorization_at(std::string_view line, std::size_t at) {
  std::size_t pos = at + 1 + run_length(line, at + 1, is_blank);
  const std::size_t scheme =
      run_length(line, pos, [](char c) { return is_lower(c) || is_upper(c); });
  std::string name;
  for (const char c : line.substr(pos, scheme)) {
    name += lower(c);
  }
  pos += scheme;
  const std::size_t blanks = run_length(line, pos, is_blank);
  if (blanks == 0 || (name != "bearer" && name != "token" && name != "basic")) {
    return std::nullopt;
  }
  pos += blanks;
  const auto value = line.substr(pos, run_length(line, pos, is_token_value));
  const bool basic = name == "basic" && value.size() >= 12 && !is_placeholder(value);
  if (!basic && (is_placeholder(value) || !looks_random(value))) {
    return std::nullopt;
  }
  return Span{pos, value.size(), "a credential in an Authorization header"};
}

// The generic check at an `=` or `:` at `at`: a credential's name before it,
// a long random-looking value (or a password) after it. The span is in
// `line`, or in `next` when the value was wrapped onto it (`on_next`).
std::optional<Span> assignment_at(std::string_view line, std::size_t at, std::string_view next,
                                  bool& on_next) {
  if ((line[at] == '=' && at + 1 < line.size() && line[at + 1] == '=') ||
      line.substr(at).starts_with("://")) {
    return std::nullopt; // a comparison, or a URL
  }
  const std::string name = name_before(line, at);
  if (name.ends_with("authorization") && line[at] == ':') {
    return authorization_at(line, at);
  }
  const bool password = ends_with_any(name, {"password", "passwd", "pwd", "pass"});
  if (name.empty() ||
      !(password || ends_with_any(name, {"key", "secret", "token", "credential", "credentials"}))) {
    return std::nullopt;
  }
  const auto whole = value_from(line, at + 1, next, on_next);
  // A key's value is the run of characters a token may hold.
  const auto value = whole.substr(0, run_length(whole, 0, is_token_value));
  const std::string_view where = on_next ? next : line;
  const auto offset = [&](std::string_view part) {
    return static_cast<std::size_t>(part.data() - where.data());
  };
  if (!is_placeholder(value) && looks_random(value)) {
    return Span{offset(value), value.size(), k_generic};
  }
  if (password && looks_like_password(whole)) {
    return Span{offset(whole), whole.size(), k_password};
  }
  return std::nullopt;
}

// A password inside a URL at `at` (its `://`): `scheme://user:password@host`.
std::optional<Span> url_password_at(std::string_view line, std::size_t at) {
  std::size_t pos = at + 3;
  pos += run_length(line, pos, [](char c) {
    return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
  });
  if (pos >= line.size() || line[pos] != ':') {
    return std::nullopt;
  }
  const std::size_t begin = pos + 1;
  const std::size_t n = run_length(line, begin, [](char c) {
    return !is_blank(c) && c != '/' && c != '@' && c != ':' && c != '"' && c != '\'' && c != '<' &&
           c != '>';
  });
  if (n == 0 || begin + n >= line.size() || line[begin + n] != '@') {
    return std::nullopt;
  }
  const auto password = line.substr(begin, n);
  static constexpr std::array<std::string_view, 4> k_words = {"password", "pass", "passwd",
                                                              "secret"};
  std::string lowered;
  for (const char c : password) {
    lowered += lower(c);
  }
  if (is_placeholder(password) ||
      std::find(k_words.begin(), k_words.end(), lowered) != k_words.end()) {
    return std::nullopt;
  }
  return Span{begin, n, "a password in a URL"};
}

// Every credential in one line; `next` is the line after it (for a value
// wrapped onto it), and `wrapped` gets a span found there.
std::vector<Span> spans_in_line(std::string_view line, std::string_view next,
                                std::vector<Span>& wrapped) {
  std::vector<Span> found;
  // Known shapes first, over the whole line: `OPENAI_API_KEY=sk-...` is
  // reported as the key it is, not as a random value.
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((i == 0 || !is_alnum(line[i - 1])) && may_start_token(line[i])) {
      if (const auto token = shaped_token_at(line, i)) {
        found.push_back(Span{token->begin, token->length, token->kind});
        i = token->begin + token->length;
      }
    }
  }
  const auto covered = [&](std::size_t at) {
    return std::any_of(found.begin(), found.end(), [&](const Span& span) {
      return at >= span.begin && at < span.begin + span.length;
    });
  };
  for (std::size_t at = line.find("://"); at != std::string_view::npos;
       at = line.find("://", at + 3)) {
    if (const auto span = url_password_at(line, at); span && !covered(span->begin)) {
      found.push_back(*span);
    }
  }
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((line[i] == '=' || line[i] == ':') && !covered(i)) {
      bool on_next = false;
      if (const auto span = assignment_at(line, i, next, on_next)) {
        if (on_next) {
          wrapped.push_back(*span);
        } else if (!covered(span->begin)) {
          found.push_back(*span);
        }
      }
    }
  }
  return found;
}

// A line of a key's base64 body as PEM writes it: exactly 64 characters.
bool is_pem_body_line(std::string_view line) {
  while (!line.empty() && is_blank(line.back())) {
    line.remove_suffix(1);
  }
  return line.size() == 64 && std::all_of(line.begin(), line.end(), is_base64);
}

// True when the lines look random, not a column of hex digests: both cases and digits.
bool looks_like_key_body(std::string_view block) {
  return std::any_of(block.begin(), block.end(), is_lower) &&
         std::any_of(block.begin(), block.end(), is_upper) &&
         std::any_of(block.begin(), block.end(), is_digit);
}

// The multi-line shapes, one line at a time: a private key's block from its
// BEGIN line to its END line, and three or more PEM body lines with no
// header (a public key's or certificate's block is none of these).
class Blocks {
public:
  // Takes the line at `offset` (its number `line`); a finished block is added to `out`.
  void take(std::string_view text, std::size_t offset, std::string_view line, int number,
            std::vector<SecretFinding>& out) {
    if (m_in_private) {
      if (line.find("-----END ") != std::string_view::npos) {
        out.back().end = offset + line.size();
        m_in_private = false;
      }
      return;
    }
    if (const auto begin = line.find("-----BEGIN "); begin != std::string_view::npos) {
      end_body(text, out);
      if (line.find("PRIVATE KEY", begin) != std::string_view::npos) {
        out.push_back(SecretFinding{number, "a private key", offset, offset + line.size()});
        m_in_private = line.find("-----END ", begin + 11) == std::string_view::npos;
      } else {
        m_in_public = true; // a certificate or a public key: its body is no secret
      }
      return;
    }
    if (m_in_public) {
      m_in_public = line.find("-----END ") == std::string_view::npos;
      return;
    }
    if (is_pem_body_line(line)) {
      if (m_body_lines++ == 0) {
        m_body_begin = offset;
        m_body_number = number;
      }
      m_body_end = offset + line.size();
      return;
    }
    end_body(text, out);
  }

  // True inside a private key's block, whose lines are its finding already.
  bool in_private() const { return m_in_private; }

  // Ends the text: a body that runs to its last line is a finding too.
  void finish(std::string_view text, std::vector<SecretFinding>& out) { end_body(text, out); }

private:
  void end_body(std::string_view text, std::vector<SecretFinding>& out) {
    if (m_body_lines >= 3 &&
        looks_like_key_body(text.substr(m_body_begin, m_body_end - m_body_begin))) {
      out.push_back(SecretFinding{m_body_number,
                                  "the body of a private key (base64 lines without their header)",
                                  m_body_begin, m_body_end});
    }
    m_body_lines = 0;
  }

  bool m_in_private = false;
  bool m_in_public = false;
  std::size_t m_body_lines = 0;
  std::size_t m_body_begin = 0;
  std::size_t m_body_end = 0;
  int m_body_number = 0;
};

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

std::vector<SecretFinding> find_secrets(std::string_view text) {
  std::vector<SecretFinding> found;
  Blocks blocks;
  int number = 1;
  for (std::size_t pos = 0; pos < text.size(); ++number) {
    const auto nl = text.find('\n', pos);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    const auto line = text.substr(pos, end - pos);
    const std::size_t next_begin = std::min(end + 1, text.size());
    const auto next_end = text.find('\n', next_begin);
    const auto next = text.substr(
        next_begin, (next_end == std::string_view::npos ? text.size() : next_end) - next_begin);
    const std::size_t before = found.size();
    blocks.take(text, pos, line, number, found);
    const bool taken = found.size() != before && found.back().line == number;
    if (!taken && !blocks.in_private()) {
      std::vector<Span> wrapped;
      for (const Span& span : spans_in_line(line, next, wrapped)) {
        found.push_back(SecretFinding{number, std::string(span.kind), pos + span.begin,
                                      pos + span.begin + span.length});
      }
      for (const Span& span : wrapped) {
        found.push_back(SecretFinding{number + 1, std::string(span.kind), next_begin + span.begin,
                                      next_begin + span.begin + span.length});
      }
    }
    pos = end + 1;
  }
  blocks.finish(text, found);
  std::sort(found.begin(), found.end(),
            [](const SecretFinding& a, const SecretFinding& b) { return a.begin < b.begin; });
  return found;
}

std::optional<SecretFinding> find_secret(std::string_view text) {
  auto found = find_secrets(text);
  if (found.empty()) {
    return std::nullopt;
  }
  return std::move(found.front());
}

std::string redact_secrets(std::string_view text) {
  const auto found = find_secrets(text);
  if (found.empty()) {
    return std::string(text);
  }
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const auto& secret : found) {
    if (secret.begin < at) {
      continue; // within one already replaced
    }
    out.append(text.substr(at, secret.begin - at));
    out += "[held back: " + secret.kind + "]";
    at = secret.end;
  }
  out.append(text.substr(std::min(at, text.size())));
  return out;
}

} // namespace engram::store
