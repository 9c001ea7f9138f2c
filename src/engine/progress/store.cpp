// ProgressStore: records in a KeyValueStore, with backups before migrating, unreadable records
// moved aside, merging on save, export and import.
#include "engine/progress.h"

#include "engine/json/fields.h"
#include "engine/json/writer.h"
#include "engine/progress/format.h"
#include "engine/utf8.h"

#include <algorithm>
#include <map>

namespace imquiz {
namespace {

constexpr std::string_view export_format = "imquiz-progress-export";
constexpr int export_format_version = 1;

// `wanted`, or `wanted-2`, `-3`... whichever is free: backups and copies are never overwritten.
std::string free_key(KeyValueStore& store, const std::string& wanted) {
    if (!store.get(wanted))
        return wanted;
    for (int suffix = 2;; ++suffix) {
        std::string candidate = wanted + "-" + std::to_string(suffix);
        if (!store.get(candidate))
            return candidate;
    }
}

// Before the record at `key` is replaced, keeps the stored text where the rules say: a record of
// an older version as `<key>.backup-v<N>`, a partly or wholly unreadable one as
// `<key>.unreadable`. Returns the key of the copy ("" when the record needs none), nullopt when
// storage refused the copy (then the record must not be replaced).
std::optional<std::string> keep_before_replacing(KeyValueStore& store, const std::string& key,
                                                 const std::string& stored,
                                                 const ProgressDecodeResult& decoded) {
    std::string suffix;
    if (!decoded.record || !decoded.problems.empty())
        suffix = ".unreadable";
    else if (decoded.migrated)
        suffix = ".backup-v" + std::to_string(decoded.version);
    else
        return std::string();
    std::string copy_key = free_key(store, key + suffix);
    if (!store.set(copy_key, stored))
        return std::nullopt;
    return copy_key;
}

// The problems of one import, bounded in number and length: a hostile file can hold 50,000
// broken records, or one 64 KiB id, and the app shows this list.
class ProblemList {
public:
    ProblemList(std::vector<std::string>& out, const ProgressLimits& limits)
        : out_(out), limits_(limits) {}

    void add(std::string problem) {
        if (out_.size() >= limits_.max_listed_problems) {
            ++more_;
            return;
        }
        out_.push_back(shortened(std::move(problem)));
    }
    void add_all(std::vector<std::string> problems) {
        for (std::string& problem : problems)
            add(std::move(problem));
    }
    // The line that says how many were left out, if any.
    void finish() {
        if (more_ > 0)
            out_.push_back("\u2026 and " + std::to_string(more_) + " more problem" +
                           (more_ == 1 ? "" : "s"));
    }

private:
    std::string shortened(std::string problem) const {
        if (problem.size() <= limits_.max_problem_bytes)
            return problem;
        std::size_t cut = limits_.max_problem_bytes;
        while (cut > 0 && is_utf8_continuation_byte(static_cast<unsigned char>(problem[cut])))
            --cut;   // never half a character
        problem.resize(cut);
        return problem + "\u2026";
    }

    std::vector<std::string>& out_;
    const ProgressLimits& limits_;
    std::size_t more_ = 0;
};

} // namespace

ProgressStore::ProgressStore(KeyValueStore& store, std::string key_prefix, ProgressLimits limits)
    : store_(store), prefix_(std::move(key_prefix)), limits_(limits) {}

std::string ProgressStore::key_for(std::string_view bank_id) const {
    return prefix_ + "progress." + std::string(bank_id);
}

ProgressDecodeResult ProgressStore::decode_stored(std::string_view bank_id,
                                                  const std::string& stored) {
    ProgressDecodeResult decoded = decode_progress(stored);
    if (decoded.record && decoded.record->bank_id != bank_id) {
        decoded.problems.push_back("bankId: the record is for bank \"" + decoded.record->bank_id +
                                   "\", not \"" + std::string(bank_id) + "\"");
        decoded.record.reset();
    }
    return decoded;
}

ProgressStore::LoadResult ProgressStore::load(std::string_view bank_id) {
    LoadResult result;
    result.record.bank_id = std::string(bank_id);
    const std::string key = key_for(bank_id);
    const std::optional<std::string> stored = store_.get(key);
    if (!stored)
        return result;

    ProgressDecodeResult decoded = decode_stored(bank_id, *stored);
    const std::string name = in_quotes(bank_id);
    const auto report = [&](std::string headline) {
        result.messages.push_back(std::move(headline));
        result.messages.insert(result.messages.end(), decoded.notes.begin(), decoded.notes.end());
        result.messages.insert(result.messages.end(), decoded.problems.begin(),
                               decoded.problems.end());
    };
    if (decoded.newer_version) {
        result.status = LoadStatus::NewerVersion;
        report("progress for " + name +
               " was saved by a newer ImQuiz; it is left untouched and will not be updated");
        return result;
    }
    if (decoded.record && decoded.problems.empty() && !decoded.migrated) {
        result.status = LoadStatus::Loaded;
        result.record = std::move(*decoded.record);
        prune_finished_attempts(result.record, limits_.kept_finished_attempts);
        return result;
    }

    const std::optional<std::string> copy_key =
        keep_before_replacing(store_, key, *stored, decoded);
    if (!decoded.record) {
        result.status = LoadStatus::MovedAside;
        if (copy_key && store_.remove(key))
            report("progress for " + name + " could not be read; it was moved to " +
                   in_quotes(*copy_key) + " and a fresh record started");
        else
            report("progress for " + name + " could not be read, nor moved aside (storage "
                   "refused); it was left in place and a fresh record started");
        return result;
    }
    result.record = std::move(*decoded.record);
    prune_finished_attempts(result.record, limits_.kept_finished_attempts);
    result.status = decoded.migrated ? LoadStatus::Migrated : LoadStatus::Salvaged;
    const std::string what =
        decoded.migrated ? "was migrated from version " + std::to_string(decoded.version) +
                               " to " + std::to_string(progress_format_version)
                         : "is partly unreadable; the readable part is kept";
    if (!copy_key) {
        report("progress for " + name + " " + what +
               ", in memory only: storage refused to keep a copy of the original, so it was "
               "not replaced");
        return result;
    }
    report("progress for " + name + " " + what + "; the original is kept as " +
           in_quotes(*copy_key));
    if (!store_.set(key, encode_progress(result.record)))
        result.messages.push_back("the updated record could not be saved (storage refused)");
    return result;
}

ProgressStore::SaveStatus ProgressStore::save(const ProgressRecord& record) {
    const std::string key = key_for(record.bank_id);
    ProgressRecord merged = record;
    if (const std::optional<std::string> stored = store_.get(key)) {
        const ProgressDecodeResult decoded = decode_stored(record.bank_id, *stored);
        if (decoded.newer_version)
            return SaveStatus::RefusedNewerVersion;
        if (!keep_before_replacing(store_, key, *stored, decoded))
            return SaveStatus::StorageFailed;   // never replace what could not be kept
        if (decoded.record)
            merge_progress(merged, *decoded.record);
    }
    prune_finished_attempts(merged, limits_.kept_finished_attempts);
    return store_.set(key, encode_progress(merged)) ? SaveStatus::Saved
                                                    : SaveStatus::StorageFailed;
}

std::vector<std::string> ProgressStore::bank_ids() {
    std::vector<std::string> ids;
    const std::string records_prefix = prefix_ + "progress.";
    for (const std::string& key : store_.keys()) {
        if (key.compare(0, records_prefix.size(), records_prefix) != 0)
            continue;
        std::string id = key.substr(records_prefix.size());
        if (is_slug(id))   // backups and unreadable copies have a '.' in their suffix
            ids.push_back(std::move(id));
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::string> ProgressStore::keys_of(std::string_view bank_id) {
    const std::string key = key_for(bank_id);
    std::vector<std::string> keys;
    for (std::string& stored : store_.keys()) {
        // The record itself, and `<key>.backup-v1`, `<key>.unreadable-2`...: a '.' follows the
        // id, which no other bank's id can have there (ids are slugs).
        const bool copy = stored.size() > key.size() && stored[key.size()] == '.' &&
                          stored.compare(0, key.size(), key) == 0;
        if (stored == key || copy)
            keys.push_back(std::move(stored));
    }
    return keys;
}

bool ProgressStore::delete_progress(std::string_view bank_id) {
    bool all_gone = true;
    for (const std::string& key : keys_of(bank_id))
        all_gone = store_.remove(key) && all_gone;
    return all_gone;
}

bool ProgressStore::delete_all_progress() {
    const std::string records_prefix = prefix_ + "progress.";
    bool all_gone = true;
    for (const std::string& key : store_.keys())
        if (key.compare(0, records_prefix.size(), records_prefix) == 0)
            all_gone = store_.remove(key) && all_gone;
    return all_gone;
}

std::string ProgressStore::export_all(std::int64_t now_ms) {
    JsonWriter out;
    out.begin_object();
    out.key("format").string(export_format);
    out.key("version").integer(export_format_version);
    out.key("exportedAtMs").integer(now_ms);
    out.key("records").begin_array();
    const LoadLimits limits;
    for (const std::string& bank_id : bank_ids()) {
        const std::optional<std::string> stored = store_.get(key_for(bank_id));
        if (!stored)
            continue;
        // As stored, whatever its version: the importing side decodes and migrates it, so an
        // export never loses what this version cannot read.
        JsonReadResult parsed = read_json(*stored, "", limits);
        if (parsed.document && parsed.document->root().is_object())
            out.value(parsed.document->root());
    }
    out.end_array();
    out.end_object();
    return out.take();
}

ImportSummary ProgressStore::import_all(std::string_view json_text) {
    ImportSummary summary;
    ProblemList problems(summary.problems, limits_);
    if (json_text.size() > limits_.max_import_bytes) {
        problems.add("the file is too large: " + std::to_string(json_text.size()) +
                     " bytes (the limit is " + std::to_string(limits_.max_import_bytes) +
                     " bytes, " + std::to_string(limits_.max_import_bytes / (1024 * 1024)) +
                     " MiB)");
        return summary;
    }
    std::vector<Diagnostic> diagnostics;
    const LoadLimits limits;
    DiagnosticCollector report("", limits.max_diagnostics, diagnostics);
    FieldReader read(report);
    const auto header_problems = [&]() {
        for (const Diagnostic& diagnostic : diagnostics)
            problems.add(problem_text(diagnostic));
        problems.finish();
        return summary;
    };

    JsonReadResult parsed = read_json(json_text, "", limits);
    diagnostics = std::move(parsed.diagnostics);
    if (!parsed.document || has_errors(diagnostics))
        return header_problems();
    const JsonValue& root = parsed.document->root();
    if (!read.expect_object(root, ""))
        return header_problems();
    read.check_fields(root, "", {"format", "version", "exportedAtMs", "records"});
    if (const JsonValue* format = read.required(root, "", "format")) {
        const auto name = as_string(*format);
        if (!name || *name != export_format) {
            report.error("format", "not an ImQuiz progress export (format must be \"" +
                                       std::string(export_format) + "\")");
            return header_problems();
        }
    }
    if (const JsonValue* version = read.required(root, "", "version")) {
        auto number = read.whole_number(*version, "version");
        if (number && *number != export_format_version) {
            report.error("version", "unsupported export version " + std::to_string(*number) +
                                        ": this ImQuiz reads version 1");
            return header_problems();
        }
    }
    const JsonValue* records = read.required(root, "", "records");
    const auto* items = records == nullptr ? nullptr : read.array(*records, "records");
    for (const Diagnostic& diagnostic : diagnostics)
        problems.add(problem_text(diagnostic));
    if (items == nullptr || has_errors(diagnostics)) {
        problems.finish();
        return summary;
    }
    summary.ok = true;

    // Every record of a bank merged in memory first (a file may hold thousands; the size limit
    // bounds them), then each bank loaded, merged, pruned and saved once.
    struct Incoming {
        std::string path;   // of the bank's first record, for problems
        std::vector<ProgressRecord> records;
    };
    std::vector<std::string> order;
    std::map<std::string, Incoming> incoming;
    for (std::size_t i = 0; i < items->size(); ++i) {
        const std::string path = path_index("records", i);
        ProgressDecodeResult decoded = decode_progress_json((*items)[i], path);
        problems.add_all(std::move(decoded.problems));
        if (!decoded.record)
            continue;
        auto [entry, first] = incoming.try_emplace(decoded.record->bank_id);
        if (first) {
            order.push_back(decoded.record->bank_id);
            entry->second.path = path;
        }
        entry->second.records.push_back(std::move(*decoded.record));
    }

    for (const std::string& bank_id : order) {
        Incoming& bank = incoming[bank_id];
        ProgressRecord from_file;
        from_file.bank_id = bank_id;
        std::vector<const ProgressRecord*> records;
        for (const ProgressRecord& record : bank.records)
            records.push_back(&record);
        merge_all_progress(from_file, records);
        LoadResult local = load(bank_id);
        if (local.status == LoadStatus::NewerVersion) {
            problems.add(bank.path + ": progress for " + in_quotes(bank_id) +
                         " here was saved by a newer ImQuiz; not imported");
            continue;
        }
        ImportSummary::BankImport bank_import;
        bank_import.bank_id = bank_id;
        const int counted_before = attempt_count(local.record);
        bank_import.merge = merge_progress(local.record, from_file);
        // Pruned only now, after the merge: the statistics count every attempt of the file.
        bank_import.attempts_pruned =
            prune_finished_attempts(local.record, limits_.kept_finished_attempts);
        // Attempts the file brings that were pruned on the way are counted as added too.
        bank_import.merge.attempts_added =
            std::max(bank_import.merge.attempts_added,
                     attempt_count(local.record) - counted_before);
        if (save(local.record) != SaveStatus::Saved) {
            problems.add(bank.path + ": progress for " + in_quotes(bank_id) +
                         " could not be saved (storage refused)");
            continue;
        }
        summary.banks.push_back(std::move(bank_import));
    }
    problems.finish();
    return summary;
}

} // namespace imquiz

