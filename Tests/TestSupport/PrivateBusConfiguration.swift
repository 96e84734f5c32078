import Foundation

/// The configuration a `PrivateBus` gives its dbus-daemon.
///
/// A copy of the session bus' `<listen>` and `<auth>`, an allow-all default policy, and no
/// `<servicedir>` at all: nothing installed on the machine (a packaged navd, say) can be
/// started by D-Bus activation inside a test.
public enum PrivateBusConfiguration {
    /// The placeholder in `template` where extra configuration XML goes.
    public static let extraPlaceholder = "<!-- EXTRA -->"

    /// The configuration file's text before the extra XML is inserted.
    public static let template = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <!-- A session-type bus private to one test run. -->
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
          <!-- EXTRA -->
        </busconfig>

        """

    /// The configuration text with `extraXML` (policies, limits) inserted before the end.
    public static func text(extraXML: String = "") -> String {
        template.replacingOccurrences(of: extraPlaceholder, with: extraXML)
    }
}
