// Layer: the parts of a memory store. Part of the plugin SDK.
#pragma once

namespace engram {

// The layers of a store, plus the generated files that index them.
enum class Layer {
  index,      // MEMORY.md, the index agents load at session start
  working,    // WORKING.md, what the agent is doing now
  core,       // CORE.md, promoted always-loaded knowledge
  episodic,   // episodic/YYYY-MM-DD-<slug>.md, decays
  semantic,   // semantic/<slug>.md, distilled facts
  procedural, // procedural/feedback.md, behavioural rules
  reference,  // reference/<slug>.md, pointers
  archive,    // archive/, what forgetting retired (and its YYYY-MM-DD-forgotten.json lists)
};

// The layers whose memories carry usage fields (`uses`, `helpful`,
// `last-accessed`, ...): what recall returns, feedback names, a run folds the
// usage log into, and the rules that act on use read.
inline constexpr Layer k_usage_layers[] = {Layer::semantic, Layer::procedural, Layer::reference,
                                           Layer::episodic};

} // namespace engram
