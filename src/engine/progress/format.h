// Internal to engine/progress/: what the record format (format.cpp) shares with the store and
// the record operations.
#pragma once

#include "engine/diagnostics.h"
#include "engine/json/reader.h"
#include "engine/progress.h"

#include <string>

namespace imquiz {

// The order of ProgressRecord::finished_attempts.
bool finished_earlier(const FinishedAttempt& a, const FinishedAttempt& b);

// `finished[2].percent: expected a number, got a string`, under `base_path` when given
// (`records[0].finished[2]...` in an import).
std::string problem_text(const Diagnostic& diagnostic, const std::string& base_path = {});

// decode_progress for a record already read as JSON (an export holds many).
ProgressDecodeResult decode_progress_json(const JsonValue& root, const std::string& base_path = {});

} // namespace imquiz
