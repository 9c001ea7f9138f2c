// Internal to engine/progress/: the migrations of stored records, one step per version. Each takes
// a record of version N (as JSON) and returns it in version N + 1 (as JSON text); what it cannot carry over goes
// to `notes`, what is broken to the collector. decode_progress runs them in turn.
#pragma once

#include "engine/diagnostics.h"
#include "engine/json/reader.h"

#include <string>
#include <vector>

namespace imquiz {

struct MigrationContext {
    DiagnosticCollector& report;
    std::vector<std::string>& notes;
};

// `record`, of version `version` (1 <= version < progress_format_version), in version + 1.
std::string migrate_record(int version, const JsonValue& record, MigrationContext& context);

} // namespace imquiz
