// A private X display (Xvfb) for the engines that need one: Firefox has no WebGL when headless
// here, and WebKitGTK's MiniBrowser has no headless mode at all. One display per test process,
// started on first use and stopped when the process ends.
import { spawn } from 'node:child_process';

let display = null;

const SCREEN = { width: 1920, height: 1200 };
// Where the X pointer is: an X server starts it at the screen's centre, and nothing here moves it
// (WebDriver's pointer actions are made inside the browser, not by X). Without a window manager,
// X gives keyboard focus to the window under the pointer: only a window over this point is the
// active window, whose page has focus (document.hasFocus(), :focus and :focus-within in WebKit).
export const POINTER = { x: SCREEN.width / 2, y: SCREEN.height / 2 };

export function xDisplay() {
  if (display) return display;
  display = new Promise((resolve, reject) => {
    // -displayfd: Xvfb picks a free display number itself and writes it to fd 3 once it is ready,
    // so parallel test processes never race for the same :N.
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${SCREEN.width}x${SCREEN.height}x24`, '-nolisten', 'tcp', '-noreset'],
                       { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let written = '', errors = '';
    xvfb.stderr.on('data', (chunk) => { errors += chunk; });
    xvfb.stdio[3].on('data', (chunk) => {
      written += chunk;
      if (written.includes('\n')) resolve({ name: `:${written.trim()}`, process: xvfb });
    });
    xvfb.on('error', (error) => reject(new Error(`Xvfb could not start (${error.message}); scripts/deps.sh installs it`)));
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited with ${code} before it was ready: ${errors.trim()}`)));
    process.on('exit', () => xvfb.kill());
  });
  return display;
}

export async function stopDisplay() {
  if (!display) return;
  const { process: xvfb } = await display;
  display = null;
  if (xvfb.exitCode !== null) return;
  await new Promise((resolve) => { xvfb.once('exit', resolve); xvfb.kill(); });
}
