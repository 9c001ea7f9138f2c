// ImQuiz on the web: set up, then one function per frame (program/frame.h). Who calls it, and
// when, is platform::run_main_loop: the browser, from the moment main() returns.
#include "platform/platform.h"
#include "program/frame.h"

int main(int, char**) {
    imquiz::platform::init();
    // On failure the page has already told the learner why (no WebGL 2 here).
    if (!imquiz::platform::create_gl_surface()) return 1;
    static imquiz::program::Program program;  // outlives main(): the browser keeps calling frame()
    imquiz::program::start(program);
    imquiz::platform::run_main_loop(imquiz::program::frame, &program);
    return 0;
}
