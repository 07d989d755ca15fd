// The Keychain as BancoKit's SecretStore: where the device's secret key and the remembered
// players are kept (Rust's TrustKeeper, through BancoKit's trustKeeper and TrustStoreOf).
// Items are readable after the first unlock and stay on this device
// (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly): not in iCloud or computer backups, not
// moved to a new phone. Needs Apple's Security framework: not compiled on the Linux test
// machine (the trust policy is tested there against MemorySecrets).
#if canImport(Security)
import Foundation
import Security
import BancoKit

/// A Keychain call that did not succeed.
struct KeychainError: Error, CustomStringConvertible {
    let status: OSStatus
    var description: String {
        let why = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "status \(status)"
        return "the Keychain refused: \(why)"
    }
}

/// Generic-password items of the service `org.banco.trust`, one per key.
final class KeychainSecrets: SecretStore {
    private let service = "org.banco.trust"

    private func query(_ key: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword,
         kSecAttrService as String: service,
         kSecAttrAccount as String: key]
    }

    func data(_ key: String) throws -> Data? {
        var q = query(key)
        q[kSecReturnData as String] = true
        q[kSecMatchLimit as String] = kSecMatchLimitOne
        var out: CFTypeRef?
        let status = SecItemCopyMatching(q as CFDictionary, &out)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        return out as? Data
    }

    func set(_ key: String, _ data: Data?) throws {
        guard let data = data else {
            let status = SecItemDelete(query(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
            return
        }
        // Updated in place when it is there (never deleted first: a crash would lose the key).
        let attributes: [String: Any] = [kSecValueData as String: data,
                                         kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
        var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var add = query(key)
            add.merge(attributes) { _, new in new }
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }
}
#endif
