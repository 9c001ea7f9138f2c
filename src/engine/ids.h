// The shape of bank, question and choice ids, which also name progress records in storage: one
// rule for the loader, the importers and the progress store.
#pragma once

#include <cstddef>
#include <string_view>

namespace imquiz {

constexpr std::size_t max_id_length = 64;

// [a-z0-9]+(-[a-z0-9]+)* (any length: callers check max_id_length, to say which rule failed).
bool is_slug(std::string_view text);

} // namespace imquiz
