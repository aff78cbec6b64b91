// The compiles of a log as a tree of the frames Dynamo started compiling at
// (dynamo_start's stack), after tlparse's "stack trie" (src/types.rs
// StackTrieNode, shown first on its index): stacks that share a prefix share
// its frames, children keep the order they first appear in, and each compile
// sits at the last frame of its stack. Where stacks part, each branch is a
// <details> one level in (tlparse's collapsible marker); a frame with one
// child continues at the same level, so a single stack is a plain list.
// Unlike tlparse, a long run of frames that neither part nor hold a compile
// (the outer frames every stack shares) folds into one closed <details>,
// keeping its innermost `kept_frames` in view: a test runner's 17 frames
// before the model's own are noise when orienting.
//
// The tree comes out as a flat list of rows for the index template (no
// recursion in Mustache): each row has exactly one of
//   st_frame  {name, where}     a frame on its own line
//   st_branch {name, where}     opens a branch: <details open> with the frame as summary
//   st_fold   {count, from, to} opens a closed <details> of `count` frames
//   st_here   {st_compiles: [leaf, ...]}  the compiles at the frame above (leaves as given)
//   st_end    true              closes the latest st_branch or st_fold
// (keys prefixed so a template's lookup cannot climb into the page's own).
// Frames are "file:line in name" (repl/compile_index.h); `where` is
// "file:line", `name` what follows " in ". Stacks that are empty are left
// out: the caller lists those compiles apart.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace airscope {

struct StackTreeOptions {
  size_t fold_frames = 5;  // a run of plain frames this long or longer folds
  size_t kept_frames = 2;  // of which the innermost ones stay in view
};

// `stacks[i]` (outermost first) and `leaves[i]` describe compile i; the
// sizes must match (extra leaves are ignored). An empty array when no stack
// has a frame.
nlohmann::json StackTreeRows(const std::vector<std::vector<std::string>>& stacks,
                             const std::vector<nlohmann::json>& leaves, const StackTreeOptions& options = {});

}  // namespace airscope
