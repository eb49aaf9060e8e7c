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
#include "daemon/protocol.hpp"
#include "daemon/triggers.hpp"
#include "engram_version.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

namespace engram::daemon {

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
  const auto parsed = parse_request(request);
  spdlog::debug("control request: {}",
                request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (!parsed) {
    server.reply(connection, failure(parsed.error()));
    return;
  }
  const auto wall = m_clocks.wall();
  switch (parsed->kind) {
  case RequestKind::status:
    server.reply(connection, status_reply(index));
    break;
  case RequestKind::consolidate:
    if (m_stopping) {
      server.reply(connection, failure("the daemon is stopping"));
      return;
    }
    spdlog::info("consolidation requested ({})", kind_name(parsed->run));
    store.request(parsed->run, parsed->today);
    if (!parsed->wait) {
      // A hook's request (session-end): taken now, run as soon as the loop can.
      server.reply(connection, {{"ok", true}, {"queued", true}, {"pid", ::getpid()}});
      return;
    }
    // The reply waits for the run that takes this request; the loop starts it
    // at the end of this turn, or after the run in progress.
    m_kept[index]->request_waiters.push_back(connection);
    if (parsed->progress) {
      m_kept[index]->progress_wanted.insert(connection);
    }
    break;
  case RequestKind::pause:
  case RequestKind::resume:
    store.set_paused(parsed->kind == RequestKind::pause, wall);
    server.reply(connection, {{"ok", true}, {"paused", store.paused()}});
    break;
  case RequestKind::reload: {
    const auto problems = reload();
    server.reply(connection, {{"ok", problems.empty()}, {"errors", problems}});
    break;
  }
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
