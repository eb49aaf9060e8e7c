// Layout: where each layer of a store lives, every name configurable.
#pragma once

#include "engram/layer.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace engram::store {

// The layers are the SDK's: rules and the store model name them alike.
using engram::Layer;

// All layers, in the order reports list them.
inline constexpr Layer k_all_layers[] = {Layer::index,    Layer::working,    Layer::core,
                                         Layer::episodic, Layer::semantic,   Layer::procedural,
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

  // The layer a store-relative path belongs to, or nullopt if it is not a memory file
  // (Markdown in a layer's folder, a single-file layer, or a JSON list in the archive).
  std::optional<Layer> classify(const std::filesystem::path& relative) const;

  // The folder of a folder layer, or the file of a single-file layer.
  std::filesystem::path path_of(Layer layer) const;

  // True for the layers that are one file at the root rather than a folder.
  static bool is_single_file(Layer layer);
};

} // namespace engram::store
