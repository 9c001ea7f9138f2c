// The page protocol (docs/page-protocol.md, schema in docs/page-protocol.schema.json): what the
// app tells the page about the screen, and the actions the page may send back. The page's
// scripts (the accessibility mirror, the text field, embed, the tests) know the app only
// through this.
#pragma once

#include "app/action.h"
#include "app/screen_model.h"
#include "app/state.h"

#include <string>

namespace imquiz::app {

// The version of the state document; bumped when a field changes meaning or goes away.
inline constexpr int page_protocol_version = 1;

// {"type":"check"}, {"type":"select","choice":"x"}, ... Kind::None for anything malformed or
// unknown (and for a quiz id the catalog does not list).
Action action_from_page(const AppState& state, const std::string& json);

// The same action as the page would send it ({"type":"open","quiz":"data-parallelism"}).
std::string action_to_page(const AppState& state, const Action& action);

// The state document: the screen model. Serialized once per change of the state, not per frame.
std::string screen_to_page(const AppState& state, const ScreenModel& model);
// The document with "items": the interactive rectangles the canvas drew this frame (a JSON
// array, made by the canvas), for the text field and the tests. Cheap: a splice, not a parse.
std::string with_items(const std::string& document, const std::string& items_json);

}  // namespace imquiz::app
