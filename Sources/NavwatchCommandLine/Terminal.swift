#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal: size, raw keyboard mode, the alternate screen, and putting it all back.
final class Terminal {
    private var savedAttributes = termios()
    private var isRaw = false
    private(set) var isActive = false

    /// Rows and columns of standard output's terminal (24×80 when it cannot be asked).
    func size() -> (rows: Int, columns: Int) {
        var window = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 {
            return (Int(window.ws_row), Int(window.ws_col))
        }
        return (24, 80)
    }

    /// Switches to the alternate screen with a hidden cursor, and stdin to raw keys (no echo, no line buffering;
    /// Ctrl-C still raises SIGINT).
    func enter() {
        if isatty(0) != 0, tcgetattr(0, &savedAttributes) == 0 {
            var raw = savedAttributes
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            raw.c_cc.6 = 1  // VMIN
            raw.c_cc.5 = 0  // VTIME
            isRaw = tcsetattr(0, TCSANOW, &raw) == 0
        }
        writeOut("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        isActive = true
    }

    /// Puts the terminal back as it was: main screen, visible cursor, original keyboard mode.
    func leave() {
        guard isActive else { return }
        isActive = false
        writeOut("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if isRaw { tcsetattr(0, TCSANOW, &savedAttributes) }
        isRaw = false
    }
}
