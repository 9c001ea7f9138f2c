// What the desktop player (program/desktop/main.cpp) tells platform/sdl before platform::init:
// where its files are, which settings stand in for the web page's URL parameters, and the modes
// the web does not have (watching an author's folder, one frame to a PNG, a state file for tests).
#pragma once

#include <map>
#include <string>

namespace imquiz::platform::sdl {

struct Options {
    // In place of the page's URL: quiz, lang, theme.
    std::map<std::string, std::string> parameters;
    // A single bank file, played as the web plays a bank= link (its progress kept apart); "" when
    // a folder is played.
    std::string bank_file;
    // The folder of a catalog (its index.json): the app's "quizzes/..." URLs are read from here.
    std::string catalog_folder;
    // The app's font URLs ("fonts/imquiz-sans.ttf", ...) and the files that answer them.
    std::map<std::string, std::string> fonts;
    // Where progress and settings are kept; "" for the user's data folder (SDL_GetPrefPath).
    std::string data_folder;
    // Re-read every file the app read once its modification time or size changes (--watch).
    bool watch = false;
    // One frame, offscreen, written here as a PNG once the app has settled; then the loop ends.
    std::string screenshot;
    int width = 960, height = 720;  // the window's (or the screenshot's) size, in logical pixels
    float scale = 0;                // device pixels per logical pixel; 0: the display's
    // For tests: every state the app publishes (with its signals) is written here as JSON, and on
    // SIGUSR1 the next frame drawn is written to `<state_file>.png`.
    std::string state_file;
};

void configure(Options options);

// After the loop: true when --screenshot was written; else why not.
bool screenshot_written(std::string& error);

// Where text being typed is (logical pixels from the window's top-left): the IME's candidate
// window opens there (ImGui's ImeSetInputScreenPosFn).
void set_text_input_position(int x, int y);

// The clipboard's text (ImGui's paste; platform.h has only copy_text: the web cannot read it).
std::string clipboard_text();

}  // namespace imquiz::platform::sdl
