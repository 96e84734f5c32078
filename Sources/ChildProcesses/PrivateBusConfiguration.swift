/// The configuration of a private dbus-daemon: the tests' and the benchmark's `PrivateBus`, and
/// `navctl replay`'s bus (`BusDaemon`).
///
/// A copy of the session bus' `<listen>`, `<auth>` and `<limit>`s, an allow-all default
/// policy, and no `<servicedir>` at all: nothing installed on the machine (a packaged navd, say) can be
/// started by D-Bus activation inside a test.
public enum PrivateBusConfiguration {
    /// The placeholder in `template` where extra configuration XML goes.
    public static let extraPlaceholder = "<!-- EXTRA -->"

    /// The configuration file's text before the extra XML is inserted.
    public static let template = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <!-- A session-type bus private to one test run or one replay. -->
          <type>session</type>
          <keep_umask/>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <!-- No service directories and no includes: nothing can be activated. -->
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
            <allow user="*"/>
          </policy>
          <!-- The session bus' limits (/usr/share/dbus-1/session.conf): without them the
               compiled-in defaults apply, such as 128 calls awaiting replies per connection,
               and pipelining tests would meet LimitsExceeded where a real session bus has none. -->
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_incoming_unix_fds">250000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_outgoing_unix_fds">250000000</limit>
          <limit name="max_message_size">1000000000</limit>
          <limit name="service_start_timeout">120000</limit>
          <limit name="auth_timeout">240000</limit>
          <limit name="pending_fd_timeout">150000</limit>
          <limit name="max_completed_connections">100000</limit>
          <limit name="max_incomplete_connections">10000</limit>
          <limit name="max_connections_per_user">100000</limit>
          <limit name="max_pending_service_starts">10000</limit>
          <limit name="max_names_per_connection">50000</limit>
          <limit name="max_match_rules_per_connection">50000</limit>
          <limit name="max_replies_per_connection">50000</limit>
          <!-- Extra configuration goes here; later elements override earlier ones. -->
          <!-- EXTRA -->
        </busconfig>

        """

    /// The configuration text with `extraXML` (policies, limits) inserted before the end.
    public static func text(extraXML: String = "") -> String {
        template.split(separator: extraPlaceholder, omittingEmptySubsequences: false).joined(separator: extraXML)
    }
}
