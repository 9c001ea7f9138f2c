// Files saved again while the app runs (a desktop player watching an author's folder, --watch):
// a bank is read anew and replaces the one in play, on the same question where it still exists;
// a version that does not load leaves the last good one playable, its problems told beside it.
#include "app/app_internal.h"

#include <algorithm>

namespace imquiz::app {

namespace {

void reload_bank(BankSlot& slot) {
    slot.reloading = true;
    slot.fetch_request = platform::start_fetch(slot.url);
}

}  // namespace

bool take_failed_reload(AppState& state, BankSlot& slot, const std::string& error) {
    if (!slot.reloading) return false;
    slot.reloading = false;
    if (!slot.bank) return false;
    Diagnostic problem;
    problem.file = slot.url;
    problem.message = "could not be read: " + error;
    slot.reload_problems = {problem};
    state.reload_notice_dismissed = false;
    return true;
}

bool reload_changed_files(AppState& state) {
    std::vector<std::string> urls = platform::take_changed_files();
    bool changed = false;
    for (const std::string& url : urls) {
        for (BankSlot& slot : state.banks) {
            if (slot.url != url) continue;
            if (slot.bank) {
                reload_bank(slot);
            } else {
                fetch_bank(slot);  // it never loaded: read as the first time
                if (!state.wanted_bank_url.empty()) state.opened_wanted_quiz = false;  // and opened, once it does
            }
            changed = true;
        }
        // An image of the bank in play: all of them are fetched and decoded again.
        bool picture = std::any_of(state.pictures.begin(), state.pictures.end(),
                                   [&](const Picture& p) { return p.url == url; });
        if (picture) {
            refetch_pictures(state);
            changed = true;
        }
    }
    return changed;
}

bool take_reloaded_bank(AppState& state, BankSlot& slot, BankLoadResult& loaded) {
    if (!slot.reloading) return false;
    slot.reloading = false;
    if (!slot.bank) return false;  // nothing to keep: read as the first time
    state.reload_notice_dismissed = false;
    std::vector<Diagnostic>& problems = loaded.diagnostics;
    if (!loaded.bank) {
        problems.erase(std::remove_if(problems.begin(), problems.end(),
                                      [](const Diagnostic& d) { return d.severity != Diagnostic::Severity::Error; }),
                       problems.end());
        slot.reload_problems = std::move(problems);
        return true;
    }
    slot.reload_problems.clear();
    slot.diagnostics = std::move(problems);
    slot.formulas = std::move(loaded.formulas);
    slot.formulas_checked = false;
    slot.bank = std::move(loaded.bank);
    slot.fingerprint = bank_fingerprint(*slot.bank);
    slot.question_count = slot.bank->questions.size();
    const int index = static_cast<int>(&slot - state.banks.data());
    if (index == state.active_bank) {
        refetch_pictures(state);
        continue_on_reloaded_bank(state);
    }
    return true;
}

}  // namespace imquiz::app
