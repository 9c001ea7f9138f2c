// The app's life around its model: start, take what arrived each frame, apply actions.
#pragma once

#include "app/action.h"
#include "app/state.h"

namespace imquiz::app {

// Reads URL parameters and saved settings, opens progress storage, starts the fetches.
void start(AppState& state);

// Takes whatever arrived since the last frame: fetched files, other tabs' progress, actions
// from the page (accessibility mirror, text field, tests). Returns true when anything changed.
bool poll(AppState& state);

// The only place the state changes.
void apply(AppState& state, const Action& action);

// After a frame: the formula pictures it drew (`drawn`, picture_key) are kept, those it wanted
// and no one asked for yet are decoded (platform::start_picture_decode; poll takes them), and,
// once there are many, those no recent frame drew are let go of. True when a picture (a formula's
// or a bank's) is there that was not: one the platform answered at once (the web page had read
// it ahead), which the frame, laid out again before it is shown, can draw.
bool update_math_pictures(AppState& state, const std::vector<std::string>& drawn,
                          const std::vector<WantedMathPicture>& wanted);

// A quiz the URL asked for (?quiz=) is still on its way: drawing now would flash the catalog
// before it. Until it opens (or fails), the page's own loading indicator stays.
bool opening_quiz(const AppState& state);

// Effective theme: the learner's choice, or the system's when "System".
bool wants_dark(const AppState& state);

}  // namespace imquiz::app
