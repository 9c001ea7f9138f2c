// Which of the two web players this build is. The rich player draws Markdown banks: the layout of
// Markdown texts, coloured code, typeset formulas and pictures. The plain player (built with
// IMQUIZ_PLAIN_PLAYER) draws plain banks only, and leaves all of that out of what a learner of a
// plain bank downloads (about 14 KB of brotli wasm, docs/benchmark.md). Both come from the same
// sources: the few places that start rich work test `rich_player`, and the compiler drops what
// only they reach. web/boot.js picks the player from the banks it fetches; a plain player that
// meets a Markdown bank all the same hands over to the rich one (platform::open_rich_player).
// Native builds (tests, tools) are the rich player.
#pragma once

namespace imquiz::app {

#ifdef IMQUIZ_PLAIN_PLAYER
inline constexpr bool rich_player = false;
#else
inline constexpr bool rich_player = true;
#endif

}  // namespace imquiz::app
