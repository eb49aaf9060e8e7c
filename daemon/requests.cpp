// The daemon's control requests (status, consolidate, pause, resume, reload)
// and reloading the configuration, which SIGHUP shares.
//
// Requests and replies are JSON objects on one line each:
//   {"request":"status"}                          → {"ok":true,"pid":…,"store":{…},"stores":[…]}
//   {"request":"consolidate","kind":"full"|"lightweight","now":"YYYY-MM-DD"}
//                                                 → the run's outcome, once it has run
//   … with "wait":false                           → {"ok":true,"queued":true} at once
//   {"request":"pause"} / {"request":"resume"}    → {"ok":true,"paused":…}
//   {"request":"reload"}                          → {"ok":…,"errors":[…]}
// A failed request is {"ok":false,"error":"…"}.
#include "daemon/daemon.hpp"
#include "daemon/log.hpp"
#include "engram_version.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

namespace engram::daemon {

namespace {

// A failure reply.
nlohmann::json failure(const std::string& message) {
  return {{"ok", false}, {"error", message}};
}

} // namespace

nlohmann::json Daemon::status_reply(std::size_t index) const {
  const auto now = m_clocks.now();
  const auto wall = m_clocks.wall();
  nlohmann::json stores = nlohmann::json::array();
  for (const auto& store : m_stores) {
    stores.push_back(store->status(now, wall));
  }
  return {{"ok", true},
          {"pid", ::getpid()},
          {"version", k_version},
          {"stopping", m_stopping},
          {"store", stores.at(index)},
          {"stores", stores}};
}

void Daemon::on_request(std::size_t index, ConnectionId connection, const nlohmann::json& request) {
  StoreWatch& store = *m_stores[index];
  ControlServer& server = *m_kept[index]->server;
  const StoreLogScope scope(store.name());
  const std::string what = request.value("request", std::string());
  spdlog::debug("control request: {}", what.empty() ? request.dump() : what);
  const auto wall = m_clocks.wall();

  if (what == "status") {
    server.reply(connection, status_reply(index));
  } else if (what == "consolidate") {
    if (m_stopping) {
      server.reply(connection, failure("the daemon is stopping"));
      return;
    }
    const std::string kind = request.value("kind", std::string("full"));
    if (kind != "full" && kind != "lightweight") {
      server.reply(connection,
                   failure("kind must be \"full\" or \"lightweight\", not \"" + kind + "\""));
      return;
    }
    std::optional<Date> today;
    if (request.contains("now") && !request["now"].is_null()) {
      today = request["now"].is_string() ? Date::parse(request["now"].get<std::string>())
                                         : std::nullopt;
      if (!today) {
        server.reply(connection, failure("now must be a date YYYY-MM-DD"));
        return;
      }
    }
    spdlog::info("consolidation requested ({})", kind);
    store.request(kind == "full" ? RunKind::full : RunKind::lightweight, today);
    if (request.contains("wait") && request["wait"] == false) {
      // A hook's request (session-end): taken now, run as soon as the loop can.
      server.reply(connection, {{"ok", true}, {"queued", true}, {"pid", ::getpid()}});
      return;
    }
    // The reply waits for the run that takes this request; the loop starts it
    // at the end of this turn, or after the run in progress.
    m_kept[index]->request_waiters.push_back(connection);
  } else if (what == "pause" || what == "resume") {
    store.set_paused(what == "pause", wall);
    server.reply(connection, {{"ok", true}, {"paused", store.paused()}});
  } else if (what == "reload") {
    const auto problems = reload();
    server.reply(connection, {{"ok", problems.empty()}, {"errors", problems}});
  } else {
    server.reply(connection, failure("unknown request \"" + what +
                                     "\"; one of status, consolidate, pause, resume, reload"));
  }
}

std::vector<std::string> Daemon::reload() {
  if (!m_options.load_config) {
    return {};
  }
  auto loaded = m_options.load_config();
  if (!loaded) {
    // The old configuration stays in force: a typo must not stop the daemon.
    for (const auto& problem : loaded.error()) {
      spdlog::error("reload: {}", problem);
    }
    spdlog::error("reload: the configuration has errors; keeping the one in force");
    return loaded.error();
  }
  const config::Config& config = *loaded;
  if (!m_options.log_level_fixed) {
    spdlog::set_level(spdlog::level::from_str(config.global.get_string("daemon.log_level")));
  }
  const auto now = m_clocks.now();
  const auto wall = m_clocks.wall();
  for (std::size_t index = 0; index < m_stores.size(); ++index) {
    StoreWatch& store = *m_stores[index];
    store.reconfigure(config.settings_for(store.root()), m_make_watcher, now, wall);
    watch_fd(index);
  }
  spdlog::info("configuration reloaded from {}",
               config.source.empty() ? std::string("built-in defaults") : config.source.string());
  return {};
}

} // namespace engram::daemon
