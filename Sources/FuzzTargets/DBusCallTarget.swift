import DBus
import NavdService
import NavigatorProtocol

/// The body of a D-Bus call to each method's arguments: the first byte chooses the method, the rest is the
/// body, loaded with the method's declared in-signature as libdbus loads a message from the bus
/// (`Message(receivedCallTo:…)`), read into values (`Message.body()`, as the object server does) and decoded
/// into the method's typed `NavigatorCall` as the daemon decodes them (`CallDecoding.decode`, the decoding
/// `NavigatorDaemon.answer` switches over).
public func fuzzDBusCall(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    guard let first = data.first else { return }
    let method = NavigatorMethod.allCases[Int(first) % NavigatorMethod.allCases.count]
    guard let message = try? Message(
        receivedCallTo: Navigator.objectPath.rawValue, interface: Navigator.interfaceName, member: method.name,
        signature: method.declaration.inSignature, body: Array(data.dropFirst()))
    else { return }
    guard message.signature == method.declaration.inSignature.rawValue, let values = try? message.body() else { return }
    _ = try? CallDecoding.decode(method, values)
}
