// Tests of the forgetting rule's decisions (rules/forgetting/verdict.hpp), the
// day's list of forgotten memories (forgotten_list.hpp) and the usage fields
// it reads (rules/shared/usage.hpp), against a real store model.
#include "../../rules/forgetting/forgotten_list.hpp"
#include "../../rules/forgetting/verdict.hpp"
#include "../../rules/shared/usage.hpp"
#include "lib/store_model.hpp"

#include <catch2/catch.hpp>

using namespace engram;
namespace forgetting = engram::forgetting;
namespace usage = engram::usage;

namespace {

const Date k_today(2026, 11, 22);

// Usage last used `idle` days before k_today.
usage::Usage used(std::int64_t idle, std::int64_t uses, std::int64_t helpful = 0,
                  std::int64_t unhelpful = 0) {
  usage::Usage u;
  u.last_accessed = k_today.plus_days(-idle);
  u.created = Date(2025, 1, 1);
  u.uses = uses;
  u.helpful = helpful;
  u.unhelpful = unhelpful;
  u.has_uses = true;
  return u;
}

using Files = std::map<std::string, std::string>;

// A store model of `files` (path → bytes) on k_today, as the forgetting rule sees it.
struct Model : test::StoreModel {
  explicit Model(const std::map<std::string, std::string>& files)
      : test::StoreModel(files, k_today, "forgetting") {}
};

} // namespace

TEST_CASE("an unused memory used fewer than 3 times is forgotten, with both reasons said") {
  const auto verdict = forgetting::decide(used(120, 1, 0, 1), {}, k_today, {});
  CHECK(verdict.candidate);
  CHECK(verdict.forget);
  CHECK(verdict.idle_days == 120);
  CHECK(verdict.reason ==
        "unused for 120 days (last used 2026-07-25), used 1 time (fewer than 3) and 0% helpful "
        "(0 helpful, 1 unhelpful; under 30%)");
}

TEST_CASE("an unused but often used memory is forgotten only when it rarely helped") {
  CHECK_FALSE(forgetting::decide(used(120, 10), {}, k_today, {}).candidate); // no feedback
  CHECK_FALSE(forgetting::decide(used(120, 10, 5, 5), {}, k_today, {}).candidate);
  const auto unhelpful = forgetting::decide(used(120, 10, 2, 8), {}, k_today, {});
  CHECK(unhelpful.forget);
  CHECK_THAT(unhelpful.reason, Catch::Contains("20% helpful"));
}

TEST_CASE("a memory used within the unused period, or recently, is kept") {
  CHECK_FALSE(forgetting::decide(used(90, 0), {}, k_today, {}).candidate);
  CHECK(forgetting::decide(used(91, 0), {}, k_today, {}).candidate);
  // However the thresholds are set, use in the last `recent_days` keeps it.
  forgetting::Thresholds quick;
  quick.unused_days = 5;
  const auto recent = forgetting::decide(used(20, 0), {}, k_today, quick);
  CHECK_FALSE(recent.candidate);
  CHECK(recent.reason == "used in the last 30 days");
}

TEST_CASE("without last-accessed the creation date counts, and without either nothing is decided") {
  usage::Usage u;
  u.created = Date(2026, 1, 1);
  CHECK(forgetting::decide(u, {}, k_today, {}).forget);
  const auto unknown = forgetting::decide(usage::Usage{}, {}, k_today, {});
  CHECK_FALSE(unknown.candidate);
  CHECK_THAT(unknown.reason, Catch::Contains("age is unknown"));
}

TEST_CASE("a critical or confirmed memory is a candidate that is kept, with what protects it") {
  const auto critical = forgetting::decide(used(200, 0), {true, false}, k_today, {});
  CHECK(critical.candidate);
  CHECK_FALSE(critical.forget);
  CHECK(critical.kept_because == "marked critical");
  const auto confirmed = forgetting::decide(used(200, 0), {false, true}, k_today, {});
  CHECK_FALSE(confirmed.forget);
  CHECK_THAT(confirmed.kept_because, Catch::Contains("include_confirmed"));
  forgetting::Thresholds include;
  include.include_confirmed = true;
  CHECK(forgetting::decide(used(200, 0), {false, true}, k_today, include).forget);
  CHECK_FALSE(forgetting::decide(used(200, 0), {true, true}, k_today, include).forget);
}

TEST_CASE("usage fields are read as counts, and a field that is not one is named") {
  Model model(Files{{"semantic/a.md", "---\ntype: semantic\ncreated: 2026-01-02\nlast-accessed: "
                                      "2026-03-04\nuses: 7\nhelpful: 2\nunhelpful: 6\n---\n- A.\n"},
                    {"semantic/b.md", "---\ntype: semantic\nuses: many\n---\n- B.\n"},
                    {"semantic/c.md", "---\ntype: semantic\n---\n- C.\n"}});
  const auto a = usage::usage_of(*model.workspace, "semantic/a.md");
  CHECK(a.uses == 7);
  CHECK(a.has_uses);
  CHECK(a.effectiveness() == Approx(0.25));
  CHECK(a.last_used() == Date(2026, 3, 4));
  const auto b = usage::usage_of(*model.workspace, "semantic/b.md");
  CHECK(b.problem ==
        "`uses: many` is not a count (a whole number of 0 or more); usage is not read");
  CHECK(usage::field_line(*model.workspace, "semantic/b.md", "uses") == 3);
  const auto c = usage::usage_of(*model.workspace, "semantic/c.md");
  CHECK_FALSE(c.has_uses);
  CHECK_FALSE(c.effectiveness());
  CHECK(usage::store_has_usage_data(*model.workspace));
}

TEST_CASE("a store where no memory has a uses field has no usage data") {
  Model model(Files{{"semantic/a.md",
                     "---\ntype: semantic\nlast-accessed: 2020-01-01\nhelpful: 1\n---\n- A.\n"}});
  CHECK_FALSE(usage::store_has_usage_data(*model.workspace));
}

TEST_CASE(
    "the day's forgotten list is created, appended to, and never overwritten when unreadable") {
  const forgetting::Json entry = {{"path", "semantic/x.md"}, {"uses", 1}};
  {
    Model model(Files{});
    const auto write = forgetting::list_write(*model.workspace, "archive", k_today, {entry});
    CHECK(write.path == "archive/2026-11-22-forgotten.json");
    CHECK_FALSE(write.appended);
    CHECK(forgetting::read_list(write.bytes)->size() == 1);
  }
  {
    Model model(
        Files{{"archive/2026-11-22-forgotten.json", "[\n  {\"path\": \"semantic/old.md\"}\n]\n"}});
    REQUIRE(model.workspace->exists("archive/2026-11-22-forgotten.json"));
    const auto write = forgetting::list_write(*model.workspace, "archive", k_today, {entry});
    CHECK(write.path == "archive/2026-11-22-forgotten.json");
    CHECK(write.appended);
    const auto list = forgetting::read_list(write.bytes);
    REQUIRE(list->size() == 2);
    CHECK((*list)[0]["path"] == "semantic/old.md");
    CHECK((*list)[1]["path"] == "semantic/x.md");
  }
  {
    Model model(Files{{"archive/2026-11-22-forgotten.json", "my own notes, not JSON\n"}});
    const auto write = forgetting::list_write(*model.workspace, "archive", k_today, {entry});
    CHECK(write.path == "archive/2026-11-22-forgotten-2.json");
    CHECK_FALSE(write.appended);
  }
}
