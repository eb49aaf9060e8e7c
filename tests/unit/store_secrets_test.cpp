// Tests of the secrets guard: every credential shape it knows is found at its
// line, and the ordinary notes an agent writes (identifiers, hashes of short
// words, prose about keys and tokens) are not, or they would be held back.
#include "store/secrets.hpp"

#include <catch2/catch.hpp>
#include <string>

using engram::store::entropy_bits;
using engram::store::find_secret;

namespace {

// A few notes before the interesting line, so the line number is tested too.
std::string after_notes(const std::string& line) {
  return "# Deploy notes\n\n- The staging cluster runs on three nodes.\n" + line +
         "\nMore prose.\n";
}

} // namespace

TEST_CASE("each known credential shape is found at its line with its kind") {
  struct Case {
    std::string line;
    std::string kind;
  };
  const std::vector<Case> cases = {
      {"-----BEGIN RSA PRIVATE KEY-----", "a private key"},
      {"-----BEGIN OPENSSH PRIVATE KEY-----", "a private key"},
      {"-----BEGIN PRIVATE KEY-----", "a private key"},
      {"aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "an AWS access key id"},
      {"temporary: ASIAY34FZKBOKMUTVV7A until noon", "an AWS access key id"},
      {"token ghp_16C7e42F292c6912E7710c838347Ae178B4a in the CI settings", "a GitHub token"},
      {"- gho_16C7e42F292c6912E7710c838347Ae178B4a", "a GitHub token"},
      {"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "a GitHub token"},
      {"slack: xoxb-2048-4096-ab12cd34ef56", "a Slack token"},
      {"OPENAI_API_KEY=sk-Q8nT3xVb7LmK2pR9sW4yZ1aC6dE0fG5h", "an OpenAI API key"},
      {"use sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z for the batch job", "an OpenAI API key"},
      {"api_key = \"9f8e7d6c5b4a39281706f5e4d3c2b1a0\"", "a high-entropy value"},
      {"db_password: Xk7pQ2mZ9vR4tL8wN3sB", "a high-entropy value"},
      {"client-secret: 'aZ3kP9qL2mX7vB4nW8tR'", "a high-entropy value"},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    const auto found = find_secret(after_notes(c.line));
    REQUIRE(found);
    CHECK(found->line == 4);
    CHECK(found->kind.find(c.kind) == 0);
  }
}

TEST_CASE("a credential is found on its line in CRLF text and at the very end without a newline") {
  const auto crlf = find_secret("line one\r\nline two\r\nkey AKIAIOSFODNN7EXAMPLE\r\n");
  REQUIRE(crlf);
  CHECK(crlf->line == 3);
  const auto last = find_secret("first\nsecond\nthird ghp_16C7e42F292c6912E7710c838347Ae178B4a");
  REQUIRE(last);
  CHECK(last->line == 3);
  const auto first = find_secret("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB...\n");
  REQUIRE(first);
  CHECK(first->line == 1);
}

TEST_CASE("ordinary notes, identifiers and prose about keys are not taken for credentials") {
  const std::vector<std::string> notes = {
      "cache_key = user_profile_v2",
      "cache_key = user_profile_v2_2024_final",
      "The primary key: customer_id_and_order_id_2024",
      "session_token: expires_after_30_minutes",
      "password: hunter2",
      "We rotated the API key on 2026-01-05 and the token on 2026-01-06.",
      "The monkey: bananas_and_more_bananas_2024",
      "tokens: 4096",
      "if (key == 'abcdef0123456789abcdef') return;",
      "See https://example.org/docs/auth:tokens for how keys are issued.",
      "Run `task-1234567890abcdefghij` before deploying.",
      "We use sk-learn-pipeline-version-2-final for scoring.",
      "The AKIA prefix marks long-term AWS keys; ASIA marks temporary ones.",
      "AKIAIOSFODNN7EXAMPLE1 is too long to be an access key id.",
      "ghp_short is not a token.",
      "xoxo-hugs-and-kisses-from-the-team",
      "-----BEGIN CERTIFICATE-----",
      "-----BEGIN PUBLIC KEY-----",
      "created: 2026-01-05T10:00:00Z",
      "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the pagination bug.",
      "- Shopify's admin API pages at 250 rows.",
      "## Solution: rotate the signing key",
  };
  for (const auto& note : notes) {
    INFO(note);
    CHECK_FALSE(find_secret(after_notes(note)));
  }
  CHECK_FALSE(find_secret(""));
  CHECK_FALSE(find_secret("\n\n\n"));
}

TEST_CASE("a value assigned to a key is flagged only when long and random-looking") {
  // Long and random: flagged.
  CHECK(find_secret("secret_key = q7Wm2Zr9Lx4Tb8Nc3Vd6"));
  // Too short, even if random.
  CHECK_FALSE(find_secret("secret_key = q7Wm2Zr9Lx4Tb8N"));
  // Long but made of short words: an identifier, not a credential.
  CHECK_FALSE(find_secret("secret_key = prod_eu_west_1_primary_db"));
  // Long, one run, but low entropy (no variety).
  CHECK_FALSE(find_secret("secret_key = aaaaaaaaaaaaaaaa1111111111"));
  // Letters only or digits only: not random-looking enough.
  CHECK_FALSE(find_secret("secret_key = abcdefghijklmnopqrstuvwxyz"));
  CHECK_FALSE(find_secret("secret_key = 12345678901234567890"));
  // A comparison, not an assignment.
  CHECK_FALSE(find_secret("secret_key == q7Wm2Zr9Lx4Tb8Nc3Vd6"));
  // The name must say key, secret, token, password or credential(s).
  CHECK_FALSE(find_secret("build_id = q7Wm2Zr9Lx4Tb8Nc3Vd6"));
  CHECK(find_secret("AUTH_TOKEN=q7Wm2Zr9Lx4Tb8Nc3Vd6"));
  CHECK(find_secret("\"credentials\": \"q7Wm2Zr9Lx4Tb8Nc3Vd6\""));
}

TEST_CASE("entropy is measured in bits per byte") {
  CHECK(entropy_bits("") == 0.0);
  CHECK(entropy_bits("aaaaaaaa") == 0.0);
  CHECK(entropy_bits("abab") == Approx(1.0));
  CHECK(entropy_bits("abcd") == Approx(2.0));
  CHECK(entropy_bits("0123456789abcdef") == Approx(4.0));
  std::string every_byte;
  for (int i = 0; i < 256; ++i) {
    every_byte += static_cast<char>(i);
  }
  CHECK(entropy_bits(every_byte) == Approx(8.0));
  // Random-looking text scores high, words score lower.
  CHECK(entropy_bits("q7Wm2Zr9Lx4Tb8Nc3Vd6") > entropy_bits("user_profile_v2_2024"));
}

TEST_CASE("a hostile line costs linear time") {
  // A megabyte of separators and would-be prefixes: every position is a
  // candidate, and each is decided within a bounded window.
  std::string line;
  for (int i = 0; i < 100000; ++i) {
    line += "key=sk-:";
  }
  line += '\n';
  CHECK_FALSE(find_secret(line));
  const std::string long_run(1 << 20, 'A');
  CHECK_FALSE(find_secret("token = " + long_run));
}

TEST_CASE("the shapes the first guard missed are found: a key with / and +, Stripe, JWTs, "
          "Google keys, a key's body alone, a password in a URL, a value on the next line") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY", "a high-entropy value"},
      {"Billing uses sk_live_4eC39HqLyjWDarjtT1zdp7dc now.", "a Stripe secret key"},
      {"Bearer "
       "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
       "XgL0n3I9PlFUP0THsR8U",
       "a JSON Web Token"},
      {"maps key AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe", "a Google API key"},
      {"DATABASE_URL=postgres://app:Xy7pQ2mZ9vR4tL8w@db.internal:5432/app", "a password in a URL"},
  };
  for (const auto& [line, kind] : cases) {
    INFO(line);
    const auto found = find_secret(after_notes(line));
    REQUIRE(found);
    CHECK(found->line == 4);
    CHECK(found->kind.find(kind) == 0);
  }
  const auto wrapped =
      find_secret("aws_secret_access_key =\n    wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY\n");
  REQUIRE(wrapped);
  CHECK(wrapped->line == 2);
  std::string body = "Pasted from the vault:\n";
  for (const char* line : {"MIIEowIBAAKCAQEA1x3v9kQ2mZ7pL4tR8wN3sBcYhJ6uV0aX5eD2gF9iK1oM7qS4",
                           "tU8yW3zA6bC9dE2fH5jL8nP1rT4vX7zB0cF3gI6kM9oQ2sU5wY8aD1eG4hJ7lN0p",
                           "R3tV6xZ9bC2eF5hK8mO1qS4uW7yA0cE3gI6jL9nP2rT5vX8zB1dF4hJ7kM0oQ3sU"}) {
    body += std::string(line) + "\n";
  }
  const auto pem = find_secret(body);
  REQUIRE(pem);
  INFO(pem->kind);
  CHECK(pem->kind.find("the body of a private key") == 0);
  CHECK(pem->line == 2);
}

TEST_CASE("look-alikes pass: placeholders, public keys, digests, URLs without a password") {
  for (const std::string note : {
           "postgres://app:${PGPASSWORD}@db.internal:5432/app",
           "git clone ssh://git@github.com/acme/shop.git",
           "STRIPE_KEY=sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
           "password: <your password here>",
           "Authorization: Basic ${BASIC_AUTH}",
           "image: nginx@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
           "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7jP2x9kQ4mZ7pL4tR8wN3sBcYhJ6uV0aX5eD2gF9iK dev",
       }) {
    INFO(note);
    CHECK_FALSE(find_secret(after_notes(note)));
  }
  std::string digests;
  for (int i = 0; i < 4; ++i) {
    digests += "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a0" +
               std::to_string(i) + "\n";
  }
  CHECK_FALSE(find_secret(digests)); // a column of hex digests is no key's body
}

TEST_CASE("redaction replaces each credential with its kind and keeps the rest") {
  const std::string text = "- Billing uses sk_live_4eC39HqLyjWDarjtT1zdp7dc and "
                           "ghp_16C7e42F292c6912E7710c838347Ae178B4a daily.\n- Plain note.\n";
  const auto redacted = engram::store::redact_secrets(text);
  CHECK(redacted == "- Billing uses [held back: a Stripe secret key] and [held back: a GitHub "
                    "token] daily.\n- Plain note.\n");
  CHECK(engram::store::redact_secrets("no secret here\n") == "no secret here\n");
}
