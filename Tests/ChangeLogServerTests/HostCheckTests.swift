import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLogServer

/// The `Host` check that keeps a web page from reading the log through a name it makes resolve
/// to 127.0.0.1 (DNS rebinding), over real loopback connections that send the `Host` given.
@Suite struct HostCheckTests {
    private static func misdirected(_ host: String, names: String = "") -> String {
        #"{"error":"the Host '\#(host)' is not a name of this server: it answers localhost, 127.0.0.1 and [::1]\#(names); "#
            + #"to reach it by another name, start it with --allowed-host NAME"}"#
    }

    @Test func loopbackServerAnswersLoopbackNamesOnly() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                for host in [
                    "127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "127.1.2.3",
                    "app.localhost",
                ] {
                    let response = try await RawConnection.request(port: port, "/api/log", host: host)
                    #expect(response.status == 200, "\(host)")
                }
                for host in [
                    "evil.example.com", "evil.example.com:\(port)", "127.0.0.1.evil.example", "localhost.evil.example",
                    "[::2]:\(port)", "1.2.3.4", "127.0.0.256",
                ] {
                    for target in ["/api/log", "/", "/api/subscribe"] {
                        let response = try await RawConnection.request(port: port, target, host: host)
                        #expect(response.status == 421, "\(host) \(target)")
                        #expect(response.headers["content-type"] == "application/json")
                        #expect(response.body == Self.misdirected(host))
                    }
                }
            }
        }
    }

    @Test func allowedHostsAreAnsweredBesideLoopbackNames() async throws {
        try await ServerFixtures.withLog { log in
            let server = LogServer(log: log, configuration: ServerConfiguration(allowedHosts: ["Box.lan:9000", "::5"]))
            try await ServerFixtures.withRunningServer(server) { port in
                for host in ["box.lan:\(port)", "BOX.LAN", "[::5]:\(port)", "localhost:\(port)"] {
                    #expect(
                        try await RawConnection.request(port: port, "/api/log", host: host).status == 200, "\(host)")
                }
                let refused = try await RawConnection.request(port: port, "/api/log", host: "other.lan")
                #expect(refused.status == 421)
                #expect(refused.body == Self.misdirected("other.lan", names: " and the names it was given"))
            }
        }
    }

    @Test func checkAppliesOnLoopbackOrWithNames() throws {
        #expect(ServerConfiguration(host: "127.0.0.1").checksHost)
        #expect(ServerConfiguration(host: "::1").checksHost)
        #expect(!ServerConfiguration(host: "0.0.0.0", token: "t").checksHost)
        #expect(ServerConfiguration(host: "0.0.0.0", token: "t", allowedHosts: ["box.lan"]).checksHost)
        let error = #expect(throws: LogServerError.self) {
            try ServerConfiguration(allowedHosts: ["a b"]).validate()
        }
        #expect(error?.description == "an allowed host must be a name or an address, not 'a b'")
    }

    @Test(arguments: [
        ("Example.COM:8080", "example.com"), ("[::1]:80", "[::1]"), ("::1", "[::1]"), ("localhost", "localhost"),
        ("[::1", ""), ("a/b", ""), ("user@host", ""),
    ])
    func hostNames(host: String, name: String) {
        #expect(HostNames.name(ofHost: host) == name)
    }
}
