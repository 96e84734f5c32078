import Navigation

extension RouteGraph {
    /// The YAML source of the demo graph: an example route file (`navd --print-default-routes` prints it).
    public static let demoYAML: String = """
        # navd route file: the demo graph of the contract (docs/dbus-api.md in navd's source).
        # Tabs in order; the first is selected at start unless `selected-tab` says otherwise.
        tabs:
          - name: rainbow
            root: red
            on:
              root: { open: root }
              end: { open: end }
              show-modal: { present: modal, style: cover }
          - name: news
            root: news-list
          - name: profile
            root: profile
        selected-tab: rainbow

        # Each route: title, params (name: type, or name: {type, required}), presentations
        # (push, sheet, cover; default [push]), an optional link pattern, display hints, the facts it
        # requires and the handlers of the events its screens send (`on: { EVENT: action or [actions] }`).
        routes:
          red:    { title: Red,    hints: { color: red,    index: 0 }, on: { next: { push: orange } } }
          orange: { title: Orange, hints: { color: orange, index: 1 }, on: { next: { push: yellow } } }
          yellow: { title: Yellow, hints: { color: yellow, index: 2 }, on: { next: { push: green } } }
          green:  { title: Green,  hints: { color: green,  index: 3 }, on: { next: { push: teal } } }
          teal:   { title: Teal,   hints: { color: teal,   index: 4 }, on: { next: { push: blue } } }
          blue:   { title: Blue,   hints: { color: blue,   index: 5 }, on: { next: { push: purple } } }
          purple: { title: Purple, hints: { color: purple, index: 6 } }
          news-list:
            title: News
            on:
              call: { push: call-progress }
          news-item:
            title: News item
            params:
              id: { type: int, required: true }
            link: /news/{id}
          profile:
            title: Profile
            on:
              account: { push: account }
              log-in: { start: auth }
          settings:
            title: Settings
          login:
            title: Log in
            presentations: [cover]
            on:
              forgot-password: { push: forgot-password }
              succeeded: [ { set-facts: { signed-in: true } }, { finish: signed-in } ]
              cancel: { finish: cancelled }
          forgot-password:
            title: Forgot password
            on:
              sent: pop
          modal:
            title: Modal
            presentations: [sheet, cover]
            on:
              close: dismiss
          call-progress:
            title: Calling
            on:
              succeeded: { replace: call-success }
              failed: { replace: call-error, params: { message: $event.message } }
          call-success:
            title: Success
          call-error:
            title: Error
            params:
              message: { type: string, required: true }
            on:
              retry: { replace: call-progress }
          account:
            title: Account
            requires: [signed-in]
            on:
              logout: { set-facts: { signed-in: false } }

        # Facts: typed values the app owns; navd keeps them durable. `requires` names bool facts.
        facts:
          signed-in: { type: bool, default: false }

        # Flows: child coordinators with a first screen, outputs and handlers.
        flows:
          auth:
            start: login
            presentation: cover
            outputs:
              signed-in: {}
              cancelled: {}

        # Guards: a route that requires a false fact starts the flow instead, and resumes on its output.
        guards:
          signed-in: { start: auth, resume-on: signed-in }

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
