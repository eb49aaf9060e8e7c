// Secret shapes: the table, and the matcher that reads one row at a word start.
#include "store/secret_shapes.hpp"

#include "store/char_class.hpp"
#include "store/secrets.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace engram::store {

namespace {

// The characters a token's run may hold.
enum class Chars : unsigned char {
  alnum,       // A-Z a-z 0-9
  alnum_under, // and _
  word,        // and _ -
  token,       // and _ - . =
  base64,      // A-Z a-z 0-9 + / =
  path,        // A-Z a-z 0-9 _ - /
  hex,         // 0-9 a-f A-F
  hex_lower,   // 0-9 a-f
  upper_digit, // A-Z 0-9
};

// What a run must show besides its length, so that a placeholder
// (`sk_live_XXXXXXXXXXXXXXXXXXXXXXXX`) is not taken for a key.
enum class Mix : unsigned char {
  digit_and_letter, // random tokens of this length hold both
  both_cases,       // letters only, both cases (Hugging Face)
  any,              // the prefix alone is the sign (a PuTTY key file)
};

struct Shape {
  std::string_view prefix;
  std::string_view kind;
  Chars chars;
  std::size_t min;
  std::size_t max = 0; // 0: no upper bound
  Mix mix = Mix::digit_and_letter;
};

using chars::is_alnum;
using chars::is_digit;
using chars::is_lower;
using chars::is_upper;
using chars::run_length;

bool in(Chars chars, char c) {
  switch (chars) {
  case Chars::alnum:
    return is_alnum(c);
  case Chars::alnum_under:
    return is_alnum(c) || c == '_';
  case Chars::word:
    return is_alnum(c) || c == '_' || c == '-';
  case Chars::token:
    return is_alnum(c) || c == '_' || c == '-' || c == '.' || c == '=';
  case Chars::base64:
    return is_alnum(c) || c == '+' || c == '/' || c == '=';
  case Chars::path:
    return is_alnum(c) || c == '_' || c == '-' || c == '/';
  case Chars::hex:
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  case Chars::hex_lower:
    return is_digit(c) || (c >= 'a' && c <= 'f');
  case Chars::upper_digit:
    return is_upper(c) || is_digit(c);
  }
  return false;
}

bool mixed(std::string_view run, Mix mix) {
  const bool digit = std::any_of(run.begin(), run.end(), is_digit);
  const bool lower = std::any_of(run.begin(), run.end(), is_lower);
  const bool upper = std::any_of(run.begin(), run.end(), is_upper);
  switch (mix) {
  case Mix::digit_and_letter:
    return digit && (lower || upper) && entropy_bits(run) >= (run.size() >= 16 ? 3.0 : 2.5);
  case Mix::both_cases:
    return lower && upper && entropy_bits(run) >= 3.0;
  case Mix::any:
    return true;
  }
  return false;
}

// The issuers' shapes. Longer prefixes of one issuer come before shorter
// ones (`sk-ant-` before OpenAI's `sk-`, which is read by openai_at). Data,
// not code: a row per prefix, read only after static initialisation.
const std::vector<Shape> k_shapes = {
    {"AKIA", "an AWS access key id", Chars::upper_digit, 16, 16},
    {"ASIA", "an AWS access key id", Chars::upper_digit, 16, 16},
    {"ABIA", "an AWS access key id", Chars::upper_digit, 16, 16},
    {"ACCA", "an AWS access key id", Chars::upper_digit, 16, 16},
    {"ghp_", "a GitHub token", Chars::alnum, 30},
    {"gho_", "a GitHub token", Chars::alnum, 30},
    {"ghu_", "a GitHub token", Chars::alnum, 30},
    {"ghs_", "a GitHub token", Chars::alnum, 30},
    {"ghr_", "a GitHub token", Chars::alnum, 30},
    {"github_pat_", "a GitHub token", Chars::alnum_under, 22},
    {"glpat-", "a GitLab token", Chars::word, 20},
    {"glptt-", "a GitLab token", Chars::word, 20},
    {"gldt-", "a GitLab token", Chars::word, 20},
    {"glrt-", "a GitLab token", Chars::word, 20},
    {"glsoat-", "a GitLab token", Chars::word, 20},
    {"glcbt-", "a GitLab token", Chars::word, 20},
    {"xoxb-", "a Slack token", Chars::word, 10},
    {"xoxp-", "a Slack token", Chars::word, 10},
    {"xoxa-", "a Slack token", Chars::word, 10},
    {"xoxr-", "a Slack token", Chars::word, 10},
    {"xoxs-", "a Slack token", Chars::word, 10},
    {"xoxe-", "a Slack token", Chars::word, 10},
    {"xapp-", "a Slack token", Chars::word, 10},
    {"hooks.slack.com/services/", "a Slack webhook URL", Chars::path, 20},
    {"discord.com/api/webhooks/", "a Discord webhook URL", Chars::path, 30},
    {"discordapp.com/api/webhooks/", "a Discord webhook URL", Chars::path, 30},
    {"sk_live_", "a Stripe secret key", Chars::alnum, 20},
    {"sk_test_", "a Stripe secret key", Chars::alnum, 20},
    {"rk_live_", "a Stripe restricted key", Chars::alnum, 20},
    {"rk_test_", "a Stripe restricted key", Chars::alnum, 20},
    {"whsec_", "a Stripe webhook secret", Chars::alnum, 24},
    {"sk-ant-api03-", "an Anthropic API key", Chars::word, 40},
    {"sk-ant-admin01-", "an Anthropic API key", Chars::word, 40},
    {"AIza", "a Google API key", Chars::word, 35, 35},
    {"GOCSPX-", "a Google OAuth client secret", Chars::word, 24},
    {"ya29.", "a Google OAuth access token", Chars::word, 30},
    {"SK", "a Twilio API key", Chars::hex_lower, 32, 32},
    {"SG.", "a SendGrid API key", Chars::token, 60},
    {"key-", "a Mailgun API key", Chars::alnum, 32, 32},
    {"npm_", "an npm access token", Chars::alnum, 36, 36},
    {"pypi-AgEIcHlwaS5vcmc", "a PyPI upload token", Chars::word, 50},
    {"hf_", "a Hugging Face token", Chars::alnum, 30, 0, Mix::both_cases},
    {"shpat_", "a Shopify access token", Chars::hex, 32, 32},
    {"shpss_", "a Shopify shared secret", Chars::hex, 32, 32},
    {"shpca_", "a Shopify access token", Chars::hex, 32, 32},
    {"shppa_", "a Shopify access token", Chars::hex, 32, 32},
    {"dop_v1_", "a DigitalOcean token", Chars::hex_lower, 64, 64},
    {"doo_v1_", "a DigitalOcean token", Chars::hex_lower, 64, 64},
    {"dor_v1_", "a DigitalOcean token", Chars::hex_lower, 64, 64},
    {"dapi", "a Databricks token", Chars::hex_lower, 32, 32},
    {"ATATT3", "an Atlassian API token", Chars::token, 150},
    {"lin_api_", "a Linear API key", Chars::alnum, 40, 40},
    {"secret_", "a Notion integration token", Chars::alnum, 43, 43},
    {"ntn_", "a Notion integration token", Chars::alnum, 40},
    {"sq0atp-", "a Square access token", Chars::word, 22, 22},
    {"sq0csp-", "a Square OAuth secret", Chars::word, 43, 43},
    {"EAAA", "a Square access token", Chars::word, 60, 60},
    {"dp.pt.", "a Doppler token", Chars::alnum, 40},
    {"dp.st.", "a Doppler token", Chars::alnum, 40},
    {"dp.ct.", "a Doppler token", Chars::alnum, 40},
    {"dp.sa.", "a Doppler token", Chars::alnum, 40},
    {"hvs.", "a HashiCorp Vault token", Chars::word, 90},
    {"hvb.", "a HashiCorp Vault token", Chars::word, 90},
    {"AGE-SECRET-KEY-1", "an age secret key", Chars::upper_digit, 58, 58},
    {"glsa_", "a Grafana service account token", Chars::alnum_under, 40},
    {"glc_", "a Grafana Cloud token", Chars::base64, 32},
    {"PMAK-", "a Postman API key", Chars::word, 59},
    {"sntrys_", "a Sentry auth token", Chars::base64, 50},
    {"sntryu_", "a Sentry auth token", Chars::hex_lower, 64, 64},
    {"NRAK-", "a New Relic API key", Chars::upper_digit, 27, 27},
    {"pul-", "a Pulumi access token", Chars::hex_lower, 40, 40},
    {"dt0c01.", "a Dynatrace token", Chars::token, 80},
    {"LTAI", "an Alibaba Cloud access key id", Chars::alnum, 20, 20},
    {"EZAK", "an EasyPost API key", Chars::alnum, 54, 54},
    {"EZTK", "an EasyPost API key", Chars::alnum, 54, 54},
    {"FLWSECK_TEST-", "a Flutterwave secret key", Chars::hex, 32},
    {"FLWSECK-", "a Flutterwave secret key", Chars::hex, 32},
    {"CLOJARS_", "a Clojars deploy token", Chars::alnum, 60, 60},
    {"duffel_live_", "a Duffel API token", Chars::token, 43, 43},
    {"duffel_test_", "a Duffel API token", Chars::token, 43, 43},
    {"shippo_live_", "a Shippo API token", Chars::hex_lower, 40, 40},
    {"shippo_test_", "a Shippo API token", Chars::hex_lower, 40, 40},
    {"pscale_tkn_", "a PlanetScale token", Chars::token, 32},
    {"pscale_pw_", "a PlanetScale password", Chars::token, 32},
    {"pscale_oauth_", "a PlanetScale token", Chars::token, 32},
    {"pnu_", "a Prefect API key", Chars::alnum, 36, 36},
    {"rdme_", "a ReadMe API key", Chars::alnum, 70, 70},
    {"rubygems_", "a RubyGems API key", Chars::hex_lower, 48, 48},
    {"tfp_", "a Typeform token", Chars::token, 59},
    {"ops_eyJ", "a 1Password service account token", Chars::token, 50},
    {"sk.eyJ", "a Mapbox secret token", Chars::token, 50},
    {"sbp_", "a Supabase access token", Chars::hex_lower, 40, 40},
    {"r8_", "a Replicate API token", Chars::alnum, 37, 37},
    {"gsk_", "a Groq API key", Chars::alnum, 52, 52},
    {"pplx-", "a Perplexity API key", Chars::alnum, 48, 48},
    {"xai-", "an xAI API key", Chars::alnum, 80, 80},
    {"fm2_", "a Fly.io token", Chars::token, 50},
    {"HRKU-", "a Heroku API key", Chars::word, 58},
    {"fio-u-", "a Frame.io token", Chars::word, 64, 64},
    {"PuTTY-User-Key-File-", "a PuTTY private key", Chars::alnum, 1, 0, Mix::any},
};

const std::vector<Shape>& shapes() {
  return k_shapes;
}

// The shapes by the first character of their prefix, so a word start is
// compared with the few that can match it.
const std::array<std::vector<const Shape*>, 256>& shapes_by_start() {
  static const auto by_start = [] {
    std::array<std::vector<const Shape*>, 256> index;
    for (const Shape& shape : shapes()) {
      index[static_cast<unsigned char>(shape.prefix.front())].push_back(&shape);
    }
    return index;
  }();
  return by_start;
}

std::optional<ShapedToken> table_token_at(std::string_view line, std::size_t i) {
  const auto rest = line.substr(i);
  for (const Shape* candidate : shapes_by_start()[static_cast<unsigned char>(line[i])]) {
    const Shape& shape = *candidate;
    if (!rest.starts_with(shape.prefix)) {
      continue;
    }
    const std::size_t at = i + shape.prefix.size();
    const std::size_t n = run_length(line, at, [&](char c) { return in(shape.chars, c); });
    if (n >= shape.min && (shape.max == 0 || n <= shape.max) &&
        mixed(line.substr(at, n), shape.mix)) {
      return ShapedToken{i, shape.prefix.size() + n, shape.kind};
    }
  }
  return std::nullopt;
}

bool is_base64url(char c) {
  return is_alnum(c) || c == '_' || c == '-';
}

// A JSON Web Token: three base64url parts joined by dots, the first two
// JSON objects (`eyJ` is how `{"` begins in base64).
std::optional<ShapedToken> jwt_at(std::string_view line, std::size_t i) {
  if (!line.substr(i).starts_with("eyJ")) {
    return std::nullopt;
  }
  std::size_t pos = i;
  for (int part = 0; part < 3; ++part) {
    const std::size_t n = run_length(line, pos, is_base64url);
    if (n < 10 || (part == 1 && !line.substr(pos).starts_with("eyJ"))) {
      return std::nullopt;
    }
    pos += n;
    if (part < 2) {
      if (pos >= line.size() || line[pos] != '.') {
        return std::nullopt;
      }
      ++pos;
    }
  }
  return ShapedToken{i, pos - i, "a JSON Web Token"};
}

// A Telegram bot token: the bot's id, a colon, and 35 characters from "AA".
std::optional<ShapedToken> telegram_at(std::string_view line, std::size_t i) {
  const std::size_t digits = run_length(line, i, is_digit);
  if (digits < 8 || digits > 10 || !line.substr(i + digits).starts_with(":AA")) {
    return std::nullopt;
  }
  const std::size_t n = run_length(line, i + digits + 1, is_base64url);
  if (n != 35) {
    return std::nullopt;
  }
  return ShapedToken{i, digits + 1 + n, "a Telegram bot token"};
}

// OpenAI's keys: `sk-`, `sk-proj-`, `sk-svcacct-`, then a long random run.
// Real keys are mixed-case base62; hyphenated words (`sk-learn-pipeline`)
// have no capitals.
std::optional<ShapedToken> openai_at(std::string_view line, std::size_t i) {
  if (!line.substr(i).starts_with("sk-")) {
    return std::nullopt;
  }
  const std::size_t n = run_length(line, i + 3, is_base64url);
  const auto run = line.substr(i + 3, n);
  const bool letters_and_digits = std::any_of(run.begin(), run.end(), is_digit) &&
                                  std::any_of(run.begin(), run.end(), is_lower) &&
                                  std::any_of(run.begin(), run.end(), is_upper);
  std::size_t longest = 0;
  for (std::size_t k = 0; k < run.size();) {
    const std::size_t word = run_length(run, k, is_alnum);
    longest = std::max(longest, word);
    k += word == 0 ? 1 : word;
  }
  if (n < 20 || !letters_and_digits || longest < 16) {
    return std::nullopt;
  }
  return ShapedToken{i, 3 + n, "an OpenAI API key"};
}

std::array<bool, 256> starting_characters() {
  std::array<bool, 256> starts{};
  for (const Shape& shape : shapes()) {
    starts[static_cast<unsigned char>(shape.prefix.front())] = true;
  }
  for (char c = '0'; c <= '9'; ++c) {
    starts[static_cast<unsigned char>(c)] = true; // Telegram
  }
  starts['e'] = true; // JWT
  starts['s'] = true; // OpenAI
  return starts;
}

} // namespace

bool may_start_token(char c) {
  static const std::array<bool, 256> starts = starting_characters();
  return starts[static_cast<unsigned char>(c)];
}

std::optional<ShapedToken> shaped_token_at(std::string_view line, std::size_t i) {
  if (auto token = table_token_at(line, i)) {
    return token;
  }
  if (auto token = jwt_at(line, i)) {
    return token;
  }
  if (auto token = telegram_at(line, i)) {
    return token;
  }
  return openai_at(line, i);
}

} // namespace engram::store
