// Layout: where each layer of a store lives, every name configurable.
#pragma once

#include "engram/layer.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::store {

// The layers are the SDK's: rules and the store model name them alike.
using engram::Layer;

// All layers, in the order reports list them.
inline constexpr Layer k_all_layers[] = {Layer::index,     Layer::working,  Layer::core,
                                         Layer::episodic,  Layer::semantic, Layer::procedural,
                                         Layer::reference, Layer::archive};

// The lower-case name of a layer, as in reports and JSON.
std::string_view layer_name(Layer layer);

// The names of a store's files and folders, relative to its root.
struct Layout {
  std::string memory_index = "MEMORY.md";
  std::string working = "WORKING.md";
  std::string core = "CORE.md";
  std::string episodic = "episodic";
  std::string semantic = "semantic";
  std::string procedural = "procedural";
  std::string reference = "reference";
  std::string archive = "archive";
  std::string index_json = ".index.json";
  std::string state = ".engram";

  // Memory files kept flat at the root beside the index, each in the layer
  // its frontmatter `type` names (Claude Code's topic files); empty for a
  // store whose memories are all in layer folders. A root file whose type is
  // not listed is semantic; one typed `index` is more of the index.
  std::vector<std::pair<std::string, Layer>> root_types;

  // The agent's own files at the root that hold what it knows (OpenClaw's
  // USER.md, TOOLS.md, …): in the core layer beside engram's CORE.md, read
  // for what they already say and never written (is_agent_core).
  std::vector<std::string> agent_core;

  // The name of the profile the store is kept by (store/profile.hpp).
  std::string profile = "four-layer";

  // The layer a store-relative path belongs to, or nullopt if it is not a memory file
  // (Markdown in a layer's folder, a single-file layer, a root topic file, or a
  // JSON list in the archive). A root topic file is semantic until its type says more.
  std::optional<Layer> classify(const std::filesystem::path& relative) const;

  // The layer of the memory file at `relative` whose frontmatter `type` is
  // `type`: as classify says, but for a root topic file the layer its type names.
  std::optional<Layer> classify(const std::filesystem::path& relative,
                                std::optional<std::string_view> type) const;

  // True for one of agent_core's files: no rule may change it.
  bool is_agent_core(const std::filesystem::path& relative) const;

  // The folder of a folder layer, or the file of a single-file layer.
  std::filesystem::path path_of(Layer layer) const;

  // True for the layers that are one file at the root rather than a folder.
  static bool is_single_file(Layer layer);
};

} // namespace engram::store
