import ClientCommandLine

/// A grid of cells drawn in memory, then written to the terminal in one go; text enters it only through
/// `text` and `centered`, which make it `terminalSafe`.
struct Canvas {
    /// The most rows and the most columns drawn, whatever size the terminal reports (a million cells).
    static let maximumSide = 1_000

    /// One character and its SGR attributes (`""` for the terminal's default).
    struct Cell: Equatable {
        var character: Character = " "
        var style: String = ""
    }

    let rows: Int
    let columns: Int
    private(set) var cells: [[Cell]]

    init(rows: Int, columns: Int) {
        self.rows = min(max(rows, 1), Self.maximumSide)
        self.columns = min(max(columns, 1), Self.maximumSide)
        cells = Array(repeating: Array(repeating: Cell(), count: self.columns), count: self.rows)
    }

    /// Fills a rectangle with blanks of `style`; the part outside the grid (all of it, for a rectangle
    /// off the grid or of no size) is left out.
    mutating func fill(row: Int, column: Int, height: Int, width: Int, style: String) {
        let top = max(row, 0), bottom = min(row + max(height, 0), rows)
        let left = max(column, 0), right = min(column + max(width, 0), columns)
        guard top < bottom, left < right else { return }
        for r in top..<bottom {
            for c in left..<right { cells[r][c] = Cell(character: " ", style: style) }
        }
    }

    /// Writes `text`, made `terminalSafe`, from (row, column), cut at the right edge (or at `limit` columns).
    mutating func text(_ text: String, row: Int, column: Int, style: String, limit: Int? = nil) {
        guard row >= 0, row < rows else { return }
        let end = min(columns, column + (limit ?? columns))
        var c = column
        for character in text.terminalSafe {
            if c >= end { break }
            if c >= 0 { cells[row][c] = Cell(character: character, style: style) }
            c += 1
        }
    }

    /// Writes `text`, made `terminalSafe`, centred in the columns [column, column + width).
    mutating func centered(_ text: String, row: Int, column: Int, width: Int, style: String) {
        let text = text.terminalSafe
        let shown = text.count > width ? String(text.prefix(max(width - 1, 0))) + "…" : text
        self.text(shown, row: row, column: column + max(0, (width - shown.count) / 2), style: style, limit: width)
    }

    /// Draws a box outline with `style`, using line-drawing characters or ASCII.
    mutating func box(row: Int, column: Int, height: Int, width: Int, style: String, unicode: Bool) {
        guard height >= 2, width >= 2 else { return }
        let (h, v, corners): (Character, Character, [Character]) =
            unicode ? ("─", "│", ["┌", "┐", "└", "┘"]) : ("-", "|", ["+", "+", "+", "+"])
        for c in column..<(column + width) {
            text(String(h), row: row, column: c, style: style)
            text(String(h), row: row + height - 1, column: c, style: style)
        }
        for r in row..<(row + height) {
            text(String(v), row: r, column: column, style: style)
            text(String(v), row: r, column: column + width - 1, style: style)
        }
        text(String(corners[0]), row: row, column: column, style: style)
        text(String(corners[1]), row: row, column: column + width - 1, style: style)
        text(String(corners[2]), row: row + height - 1, column: column, style: style)
        text(String(corners[3]), row: row + height - 1, column: column + width - 1, style: style)
    }

    /// The escape sequences that paint the whole grid from the top-left corner.
    func rendered() -> String {
        var output = "\u{1B}[H"
        for (index, row) in cells.enumerated() {
            output += "\u{1B}[\(index + 1);1H"
            var current = ""
            output += "\u{1B}[0m"
            for cell in row {
                if cell.style != current {
                    output += "\u{1B}[0m" + cell.style
                    current = cell.style
                }
                output.append(cell.character)
            }
        }
        return output + "\u{1B}[0m"
    }
}
