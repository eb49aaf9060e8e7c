// Layout: mapping store-relative paths to layers.
#include "store/layout.hpp"

#include <algorithm>

namespace engram::store {

std::string_view layer_name(Layer layer) {
  switch (layer) {
  case Layer::index:
    return "index";
  case Layer::working:
    return "working";
  case Layer::core:
    return "core";
  case Layer::episodic:
    return "episodic";
  case Layer::semantic:
    return "semantic";
  case Layer::procedural:
    return "procedural";
  case Layer::reference:
    return "reference";
  case Layer::archive:
    return "archive";
  }
  return "unknown";
}

bool Layout::is_single_file(Layer layer) {
  return layer == Layer::index || layer == Layer::working || layer == Layer::core;
}

std::filesystem::path Layout::path_of(Layer layer) const {
  switch (layer) {
  case Layer::index:
    return memory_index;
  case Layer::working:
    return working;
  case Layer::core:
    return core;
  case Layer::episodic:
    return episodic;
  case Layer::semantic:
    return semantic;
  case Layer::procedural:
    return procedural;
  case Layer::reference:
    return reference;
  case Layer::archive:
    return archive;
  }
  return {};
}

std::optional<Layer> Layout::classify(const std::filesystem::path& relative) const {
  const auto generic = relative.lexically_normal();
  if (generic.empty() || generic.is_absolute()) {
    return std::nullopt;
  }
  auto first = *generic.begin();
  const bool single = std::distance(generic.begin(), generic.end()) == 1;
  if (single) {
    for (Layer layer : {Layer::index, Layer::working, Layer::core}) {
      if (generic == path_of(layer)) {
        return layer;
      }
    }
    if (is_agent_core(generic)) {
      return Layer::core;
    }
    if (!root_types.empty() && generic.extension() == ".md" && generic != index_json) {
      return Layer::semantic;
    }
    return std::nullopt;
  }
  // The archive also keeps forgetting's JSON lists (`YYYY-MM-DD-forgotten.json`),
  // so a rule can append to one and a commit carries it.
  if (generic.extension() == ".json" && first == path_of(Layer::archive)) {
    return Layer::archive;
  }
  if (generic.extension() != ".md") {
    return std::nullopt;
  }
  for (Layer layer :
       {Layer::episodic, Layer::semantic, Layer::procedural, Layer::reference, Layer::archive}) {
    if (first == path_of(layer)) {
      return layer;
    }
  }
  return std::nullopt;
}

bool Layout::is_agent_core(const std::filesystem::path& relative) const {
  const auto generic = relative.lexically_normal().generic_string();
  return std::find(agent_core.begin(), agent_core.end(), generic) != agent_core.end();
}

std::optional<Layer> Layout::classify(const std::filesystem::path& relative,
                                      std::optional<std::string_view> type) const {
  const auto layer = classify(relative);
  if (layer != Layer::semantic || root_types.empty() || relative.has_parent_path() || !type) {
    return layer;
  }
  if (*type == "index") {
    return Layer::index; // more of the agent's index (its overflow): links, not claims
  }
  for (const auto& [name, typed] : root_types) {
    if (name == *type) {
      return typed;
    }
  }
  return layer;
}

} // namespace engram::store
