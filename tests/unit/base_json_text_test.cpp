// Tests of json_text: byte for byte what nlohmann's dump writes.
#include "base/json_text.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace engram;

namespace {

std::string nlohmann_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A string mixing what JSON escapes, multi-byte UTF-8 and, sometimes,
// bytes that are not UTF-8.
std::string random_string(std::mt19937& random) {
  static const std::vector<std::string> pieces = {
      "a", "claim", " ", "\"", "\\", "\n", "\r", "\t", "\b", "\f", std::string(1, '\0'),
      "\x01", "\x1f", "\x7f", "/", "café", "東京", "🎉", "\xef\xbf\xbd", "\xff", "\xc3",
      "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "- The bridge's interval is 600."};
  std::uniform_int_distribution<std::size_t> count(0, 12);
  std::uniform_int_distribution<std::size_t> piece(0, pieces.size() - 1);
  std::string text;
  for (std::size_t n = count(random); n > 0; --n) {
    text += pieces[piece(random)];
  }
  return text;
}

nlohmann::json random_value(std::mt19937& random, int depth) {
  std::uniform_int_distribution<int> kind(0, depth < 4 ? 8 : 5);
  switch (kind(random)) {
  case 0:
    return nullptr;
  case 1:
    return std::uniform_int_distribution<int>(0, 1)(random) == 1;
  case 2:
    return std::uniform_int_distribution<std::int64_t>(-1'000'000, 1'000'000)(random);
  case 3:
    return std::uniform_int_distribution<std::uint64_t>()(random);
  case 4:
    return std::uniform_real_distribution<double>(-1e6, 1e6)(random);
  case 5:
    return random_string(random);
  case 6:
  case 7: {
    nlohmann::json object = nlohmann::json::object();
    for (int n = std::uniform_int_distribution<int>(0, 4)(random); n > 0; --n) {
      object[random_string(random)] = random_value(random, depth + 1);
    }
    return object;
  }
  default: {
    nlohmann::json array = nlohmann::json::array();
    for (int n = std::uniform_int_distribution<int>(0, 4)(random); n > 0; --n) {
      array.push_back(random_value(random, depth + 1));
    }
    return array;
  }
  }
}

// Writes `value` through `writer` piece by piece: containers opened and
// closed, members in a shuffled order, keys and strings one by one, anything
// else as a value; now and then a container whole, as a value.
void write_through(JsonWriter& writer, const nlohmann::json& value, std::mt19937& random) {
  if (std::uniform_int_distribution<int>(0, 5)(random) == 0) {
    writer.value(value);
    return;
  }
  if (value.is_object()) {
    std::vector<JsonMember> members;
    for (const auto& [key, member] : value.items()) {
      members.push_back(
          {key, [&member, &random](JsonWriter& w) { write_through(w, member, random); }});
    }
    std::shuffle(members.begin(), members.end(), random); // write_object sorts them
    write_object(writer, std::move(members));
  } else if (value.is_array()) {
    writer.begin_array();
    for (const auto& item : value) {
      write_through(writer, item, random);
    }
    writer.end_array();
  } else if (value.is_string()) {
    writer.string(value.get_ref<const std::string&>());
  } else {
    writer.value(value);
  }
}

} // namespace

TEST_CASE("JsonWriter writes, piece by piece, what json_text writes for the whole") {
  std::mt19937 random(20261127);
  for (int trial = 0; trial < 3000; ++trial) {
    const auto value = random_value(random, 0);
    for (const int indent : {-1, 0, 2, 4}) {
      INFO("trial " << trial << ", indent " << indent << ": " << nlohmann_text(value, -1));
      std::string out = "x";
      JsonWriter writer(out, indent);
      write_through(writer, value, random);
      REQUIRE(out == "x" + json_text(value, indent));
    }
  }
}

TEST_CASE("JsonWriter drained in pieces writes, in all, what json_text writes") {
  std::mt19937 random(20261128);
  std::size_t drains = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const auto value = random_value(random, 0);
    for (const std::size_t every : {1, 7, 64}) {
      INFO("trial " << trial << ", every " << every << ": " << nlohmann_text(value, -1));
      std::string out;
      std::string drained;
      JsonWriter writer(out, 2);
      writer.drain_every(every, [&](std::string& text) {
        REQUIRE(text.size() >= std::min<std::size_t>(every, 1));
        drained += text;
        ++drains;
      });
      write_through(writer, value, random);
      writer.drain();
      CHECK(out.empty());
      REQUIRE(drained == json_text(value, 2));
    }
  }
  CHECK(drains > 3000); // the pieces were many, not the whole at the end
}

TEST_CASE("JsonWriter copies compact text as a value") {
  std::string out;
  JsonWriter writer(out, -1);
  writer.begin_array();
  writer.compact_text(R"({"a":[1,2]})");
  writer.string("b");
  writer.end_array();
  CHECK(out == R"([{"a":[1,2]},"b"])");
  CHECK(json_text(nlohmann::json::parse(out)) == out);
}

TEST_CASE("json_text writes what nlohmann's dump writes, compact and indented") {
  std::mt19937 random(20261126);
  for (int trial = 0; trial < 3000; ++trial) {
    const auto value = random_value(random, 0);
    for (const int indent : {-1, 0, 2, 4}) {
      INFO("trial " << trial << ", indent " << indent << ": " << nlohmann_text(value, -1));
      REQUIRE(json_text(value, indent) == nlohmann_text(value, indent));
    }
  }
}

TEST_CASE("json_text escapes as JSON requires and replaces invalid UTF-8") {
  CHECK(json_text("a\"b\\c\nd\x01") == R"("a\"b\\c\nd\u0001")");
  CHECK(json_text("café") == "\"café\"");
  CHECK(json_text("ok\xff") == "\"ok\xef\xbf\xbd\"");
  CHECK(json_text(nlohmann::json::object()) == "{}");
  CHECK(json_text(nlohmann::json::array(), 2) == "[]");
  CHECK(json_text({{"b", 1}, {"a", {true, nullptr}}}, 2) ==
        "{\n  \"a\": [\n    true,\n    null\n  ],\n  \"b\": 1\n}");
}

TEST_CASE("append_json_text appends") {
  std::string out = "x=";
  append_json_text(out, {{"k", "v"}});
  CHECK(out == R"(x={"k":"v"})");
}
