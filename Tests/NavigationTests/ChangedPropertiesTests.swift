import PropertyBased
import Testing
@testable import Navigation

/// The properties a change reports (Model/Change.swift): a set of bits, which costs no hashing per call.
@Suite(.timeLimit(.minutes(1)))
struct ChangedPropertiesTests {
    /// `ChangedProperties` is the `Set` it replaced: the same members after the same inserts, removals and set
    /// operations, listed in declaration order.
    @Test func changedPropertiesBehaveAsASetInDeclarationOrder() async {
        let all = ChangedProperty.allCases
        await propertyCheck(input: Gen.int(in: 0...(4 * all.count - 1)).array(of: 0...40)) { codes in
            var bits = ChangedProperties()
            var set = Set<ChangedProperty>()
            for code in codes {
                let property = all[code % all.count]
                switch code / all.count {
                case 0: #expect(bits.insert(property).inserted == set.insert(property).inserted)
                case 1: #expect(bits.remove(property) == set.remove(property))
                case 2: #expect(bits.update(with: property) == set.update(with: property))
                default:
                    let other: ChangedProperties = [property, all[(code + 3) % all.count]]
                    bits.formSymmetricDifference(other)
                    set.formSymmetricDifference(Set(other))
                }
                #expect(Array(bits) == all.filter(set.contains))
                #expect(bits.isEmpty == set.isEmpty && bits.contains(property) == set.contains(property))
            }
        }
    }
}
