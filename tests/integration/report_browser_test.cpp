// `engram report`'s page in a real browser, Debian's headless Chromium: it
// loads with no console error (its script ran and found every chart drawn
// with the values its data gives), and a screenshot of it is kept in the
// build tree as an artefact. Skipped, saying so, where Chromium is missing.
#include "lib/report_history.hpp"

#include <catch2/catch.hpp>
#include <regex>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// Where the screenshot is kept for people to look at after the run.
const fs::path k_artefacts = fs::path(ENGRAM_BUILD_DIR) / "artefacts";

// True when `chromium` is on PATH.
bool have_chromium() {
  return run({"sh", "-c", "command -v chromium"}).exit_code == 0;
}

// Runs headless Chromium on the page `page` with `args` added; its profile in the sandbox.
// A time limit bounds a browser that hangs rather than guessing how long it takes.
Result chromium(const Sandbox& sandbox, const fs::path& page,
                const std::vector<std::string>& args) {
  std::vector<std::string> command{"timeout",
                                   "300",
                                   "chromium",
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--no-first-run",
                                   "--user-data-dir=" + (sandbox.root() / "chromium").string(),
                                   "--enable-logging=stderr",
                                   "--v=0"};
  command.insert(command.end(), args.begin(), args.end());
  command.push_back("file://" + page.string());
  return run(command, sandbox.environment());
}

// The console messages Chromium logged: its `CONSOLE:line` lines (`CONSOLE(line)`
// in older versions).
std::vector<std::string> console_lines(const std::string& log) {
  std::vector<std::string> lines;
  static const std::regex k_console(R"([^\n]*:CONSOLE[:(]\d+\)?\][^\n]*)");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), k_console);
       it != std::sregex_iterator(); ++it) {
    lines.push_back(it->str());
  }
  return lines;
}

// The value of attribute `name` of the dumped DOM's <body>; empty when it has none.
std::string body_attribute(const std::string& dom, const std::string& name) {
  const auto body = dom.find("<body");
  REQUIRE(body != std::string::npos);
  const std::string tag = dom.substr(body, dom.find('>', body) - body);
  const auto at = tag.find(name + "=\"");
  if (at == std::string::npos) {
    return "";
  }
  const auto begin = at + name.size() + 2;
  return tag.substr(begin, tag.find('"', begin) - begin);
}

} // namespace

TEST_CASE("the report page loads in headless Chromium without a console error and draws its "
          "charts") {
  if (!have_chromium()) {
    WARN("skipped: chromium is not installed (`make setup` installs it)");
    return;
  }
  const Sandbox sandbox;
  const fs::path store = make_report_store(sandbox);
  const fs::path page = sandbox.work("report.html");
  ok(sandbox, {"report", "--store", store.string(), "--output", page.string()});
  const auto data = report_data(read_file(page));

  // The console check catches an error: a page whose script throws is seen to.
  const fs::path broken = sandbox.work("broken.html");
  write_file(broken, "<!DOCTYPE html><html><body><script>throw new Error('on purpose');"
                     "</script></body></html>");
  const auto control = chromium(sandbox, broken, {"--dump-dom"});
  REQUIRE(control.exit_code == 0);
  CHECK_THAT(control.err, Catch::Contains("on purpose"));
  CHECK(!console_lines(control.err).empty());

  const auto loaded = chromium(sandbox, page, {"--dump-dom"});
  INFO(loaded.err);
  REQUIRE(loaded.exit_code == 0);
  CHECK(console_lines(loaded.err).empty());
  CHECK(body_attribute(loaded.out, "data-report-status") == "ok");
  CHECK(body_attribute(loaded.out, "data-report-charts") == std::to_string(data["charts"].size()));
  std::size_t values = 0;
  for (const auto& chart : data["charts"]) {
    for (const auto& series : chart["series"]) {
      values += series["values"].size();
    }
  }
  REQUIRE(values > 0);
  CHECK(body_attribute(loaded.out, "data-report-points") == std::to_string(values));

  fs::create_directories(k_artefacts);
  const fs::path screenshot = k_artefacts / "report.png";
  fs::remove(screenshot);
  const auto shot = chromium(sandbox, page,
                             {"--hide-scrollbars", "--window-size=800,3200",
                              "--screenshot=" + screenshot.string()});
  INFO(shot.err);
  REQUIRE(shot.exit_code == 0);
  CHECK(console_lines(shot.err).empty());
  REQUIRE(fs::exists(screenshot));
  CHECK(read_file(screenshot).starts_with("\x89PNG\r\n\x1a\n"));
  WARN("report screenshot: " << screenshot.string());
}
