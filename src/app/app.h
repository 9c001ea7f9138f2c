// The app's behaviour around the model: loading the catalog and banks, keeping progress,
// applying actions, telling the host page what happened.
#pragma once

#include "app/state.h"

#include <string>

namespace imquiz::app {

// Reads URL parameters and saved settings, opens progress storage, starts the fetches.
void start(AppState& state);

// Takes whatever arrived since the last frame: fetched files, other tabs' progress, actions
// from the page (accessibility mirror, tests). Returns true when anything changed.
bool poll(AppState& state);

// The only place the state changes.
void apply(AppState& state, const Action& action);

// Parses an action sent by the page ({"type":"check"}, {"type":"select","choice":"x"}, ...).
// Returns Kind::None for anything malformed or unknown.
Action action_from_page(AppState& state, const std::string& json);

// The state as JSON for the page: the accessibility mirror renders it, tests read it.
// `items_json` is the list of interactive rectangles drawn this frame.
std::string describe(const AppState& state, const std::string& items_json);

// A quiz the URL asked for (?quiz=) is still on its way: drawing now would flash the catalog
// before it. Until it opens (or fails), the page's own loading indicator stays.
bool opening_quiz(const AppState& state);

// Effective theme: the learner's choice, or the system's when "System".
bool wants_dark(const AppState& state);

}  // namespace imquiz::app
