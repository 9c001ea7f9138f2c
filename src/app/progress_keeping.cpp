// The learner's progress: records of the engine's ProgressStore, kept in platform storage;
// what the learner is told when storage fails or a newer ImQuiz's record is in the way.
#include "app/app_internal.h"
#include "app/format.h"

#include "engine/hash.h"
#include "engine/storage.h"

#include <cstdio>

namespace imquiz::app {

namespace {

// The engine's storage interface over the platform's plain functions.
StorageFunctions platform_storage() {
    StorageFunctions functions;
    functions.get = [](std::string_view key) { return platform::storage_get(std::string(key)); };
    functions.set = [](std::string_view key, std::string_view value) {
        return platform::storage_set(std::string(key), std::string(value));
    };
    functions.remove = [](std::string_view key) { return platform::storage_remove(std::string(key)); };
    functions.keys = [] { return platform::storage_keys(); };
    return functions;
}

void log_messages(const std::string& bank_id, const std::vector<std::string>& messages) {
    for (const auto& message : messages) std::printf("progress %s: %s\n", bank_id.c_str(), message.c_str());
}

}  // namespace

void open_progress_store(AppState& state) {
    state.storage = std::make_unique<FunctionStore>(platform_storage());
    // A bank from a bank= link keeps its records under a prefix of its own, named after its URL:
    // a look-alike bank that reuses a real quiz's id never reads or writes that quiz's progress.
    std::string prefix;
    if (!state.wanted_bank_url.empty()) {
        Fnv1a hash;
        hash.bytes(state.wanted_bank_url.data(), state.wanted_bank_url.size());
        prefix = "development." + to_hex(hash.value()) + ".";
    }
    state.progress_store = std::make_unique<ProgressStore>(*state.storage, prefix);
}

void delete_progress(AppState& state) {
    if (!state.pending_delete || !state.progress_store) return;
    int which = *state.pending_delete;
    state.pending_delete.reset();
    if (which == -1) state.progress_store->delete_all_progress();
    for (std::size_t i = 0; i < state.banks.size(); ++i) {
        BankSlot& slot = state.banks[i];
        if (!slot.bank || (which != -1 && which != static_cast<int>(i))) continue;
        if (which != -1) state.progress_store->delete_progress(slot.bank->id);
        slot.progress = ProgressRecord{};
        slot.progress.bank_id = slot.bank->id;
        // The quiz being played had its attempt deleted with the rest: back to the catalog.
        if (state.active_bank == static_cast<int>(i)) {
            state.session.reset();
            state.feedback.reset();
            state.results.reset();
            state.active_bank = -1;
            state.screen_before_settings = Screen::Catalog;
        }
    }
    state.import_message = tr(state.preferences.language, Str::ProgressDeleted);
}

void save_progress(AppState& state, BankSlot& slot) {
    if (!state.progress_store) return;
    auto status = state.progress_store->save(slot.progress);
    // Without persistent storage every save "fails" into memory: the learner was told at start.
    if (status == ProgressStore::SaveStatus::StorageFailed && state.storage_persistent &&
        !state.write_failed_notice_shown) {
        state.write_failed_notice_visible = true;
        state.write_failed_notice_shown = true;
    }
    // A newer ImQuiz's record is never overwritten; say why this attempt is not being kept.
    if (status == ProgressStore::SaveStatus::RefusedNewerVersion && !state.newer_version_notice_shown) {
        state.newer_version_notice_visible = true;
        state.newer_version_notice_shown = true;
    }
}

void load_progress(AppState& state, BankSlot& slot) {
    if (!state.progress_store || !slot.bank) return;
    auto loaded = state.progress_store->load(slot.bank->id);
    log_messages(slot.bank->id, loaded.messages);
    if (loaded.status == ProgressStore::LoadStatus::NewerVersion && !state.newer_version_notice_shown) {
        state.newer_version_notice_visible = true;
        state.newer_version_notice_shown = true;
    }
    slot.progress = std::move(loaded.record);
    slot.progress.bank_id = slot.bank->id;
    log_messages(slot.bank->id, reconcile_with_bank(slot.progress, *slot.bank, slot.fingerprint));
}

void import_progress(AppState& state, const std::string& text) {
    if (!state.progress_store) return;
    ImportSummary summary = state.progress_store->import_all(text);
    Language language = state.preferences.language;
    if (summary.ok) {
        int added = 0;
        for (const auto& bank : summary.banks) added += bank.merge.attempts_added;
        state.import_message = format_int2(tr(language, Str::ImportSummary), static_cast<int>(summary.banks.size()), added);
        for (auto& slot : state.banks) load_progress(state, slot);
    } else {
        state.import_message = tr(language, Str::ImportFailed);
    }
    for (const auto& problem : summary.problems) state.import_message += "\n" + problem;
}

void merge_progress_from_other_tabs(AppState& state, const std::vector<std::string>& changed_keys) {
    for (const auto& key : changed_keys) {
        for (auto& slot : state.banks) {
            if (!slot.bank || !state.progress_store || key != state.progress_store->key_for(slot.bank->id)) continue;
            auto loaded = state.progress_store->load(slot.bank->id);
            merge_progress(slot.progress, loaded.record);
            // Two tabs that read the record before either wrote it: the one that wrote last never
            // saw the other's attempt, and this event is the only time the other tab hears of it.
            // So what only this tab has goes back to storage, or it is gone when this tab closes.
            // Only what storage lacks (merge_adds_to): two tabs never answer each other's writes
            // for ever. A record another tab deleted, or left unreadable or newer, stays as it is.
            const bool readable = loaded.status == ProgressStore::LoadStatus::Loaded ||
                                  loaded.status == ProgressStore::LoadStatus::Migrated ||
                                  loaded.status == ProgressStore::LoadStatus::Salvaged;
            if (readable && merge_adds_to(loaded.record, slot.progress)) save_progress(state, slot);
        }
    }
}

}  // namespace imquiz::app
