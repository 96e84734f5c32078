import Navigation

extension RouteGraph {
    /// The YAML source of the demo graph: an example route file (`navd --print-default-routes` prints it).
    public static let demoYAML: String = """
        # navd route file: the demo graph of the contract (dbus-api.md).
        # Tabs in order; the first is selected at start unless `selected-tab` says otherwise.
        tabs:
          - name: rainbow
            root: red
          - name: news
            root: news-list
          - name: profile
            root: profile
        selected-tab: rainbow

        # Each route: title, params (name: type, or name: {type, required}), presentations
        # (push, sheet, cover; default [push]), an optional link pattern and display hints.
        routes:
          red:    { title: Red,    hints: { color: red,    index: 0 } }
          orange: { title: Orange, hints: { color: orange, index: 1 } }
          yellow: { title: Yellow, hints: { color: yellow, index: 2 } }
          green:  { title: Green,  hints: { color: green,  index: 3 } }
          teal:   { title: Teal,   hints: { color: teal,   index: 4 } }
          blue:   { title: Blue,   hints: { color: blue,   index: 5 } }
          purple: { title: Purple, hints: { color: purple, index: 6 } }
          news-list:
            title: News
          news-item:
            title: News item
            params:
              id: { type: int, required: true }
            link: /news/{id}
          profile:
            title: Profile
          settings:
            title: Settings
          login:
            title: Log in
            presentations: [cover]
          forgot-password:
            title: Forgot password
          modal:
            title: Modal
            presentations: [sheet, cover]

        # Named states: names that stand for links (Open accepts them).
        states:
          root: /rainbow
          end: /rainbow/purple

        # Limits (these are the defaults; navd's command line can change them).
        limits:
          max-path-depth: 128
          max-stack-depth: 128
          max-params-bytes: 65536
          max-apply-ops: 256
          max-string-bytes: 4096
          max-undo: 100
          max-history: 1000

        """

    /// The contract's demo graph (tabs rainbow, news, profile), loaded from `demoYAML`.
    public static let demo: RouteGraph = {
        do {
            return try load(yaml: demoYAML, file: "<demo>")
        } catch {
            // The embedded source is fixed and covered by tests; a failure here is a build defect.
            fatalError("the embedded demo route graph does not load: \(error)")
        }
    }()
}
