//! Bead states packed into machine words, and numbered by a hash table of those words: a
//! state is looked up hundreds of thousands of times while the states are found, and a
//! few words compare and hash in a moment where a count per move in memory of its own
//! costs a trip to that memory.

use std::hash::Hasher;

use hashbrown::HashTable;
use rustc_hash::FxHasher;

use crate::machine::{Beads, Machine};
use crate::rule::Rule;

/// Where each move's bead count sits in a packed state.
pub(super) struct Packing {
    /// Per slot: the word and the bit its count starts at.
    fields: Vec<(u32, u32)>,
    /// Per slot: the count's bits, all ones.
    masks: Vec<u64>,
    /// Words per state.
    pub(super) words: usize,
}

impl Packing {
    /// The packing of `machine`'s states: under a rule that only takes beads away, a move
    /// never holds more than it started with, and its count needs only the bits of that;
    /// under one that adds beads, every count gets 32 bits.
    pub(super) fn new(machine: &Machine) -> Packing {
        let only_takes = matches!(machine.rule, Rule::Gardner | Rule::Relay);
        let (mut fields, mut masks) = (Vec::new(), Vec::new());
        let (mut word, mut bit) = (0u32, 0u32);
        for &fresh in machine.fresh_beads().counts() {
            let width = if only_takes {
                u32::BITS - fresh.leading_zeros()
            } else {
                u32::BITS
            };
            // A count never straddles two words.
            if bit + width > u64::BITS {
                (word, bit) = (word + 1, 0);
            }
            fields.push((word, bit));
            masks.push(if width == 0 {
                0
            } else {
                u64::MAX >> (64 - width)
            });
            bit += width;
        }
        Packing {
            fields,
            masks,
            words: word as usize + usize::from(bit > 0),
        }
    }

    /// `beads` packed, written over `key` (of [`Packing::words`] words).
    pub(super) fn pack(&self, beads: &Beads, key: &mut [u64]) {
        key.fill(0);
        for ((&(word, bit), &mask), &count) in
            self.fields.iter().zip(&self.masks).zip(beads.counts())
        {
            key[word as usize] |= (u64::from(count) & mask) << bit;
        }
    }

    /// Slots (moves of all boxes) per state.
    pub(super) fn slots(&self) -> usize {
        self.fields.len()
    }

    /// Where the count of `slot` sits in a packed state: its word, and its bits there.
    pub(super) fn bits(&self, slot: u32) -> (usize, u64) {
        let (word, bit) = self.fields[slot as usize];
        (word as usize, self.masks[slot as usize] << bit)
    }

    /// Takes one bead of `slot`, which holds some, away from the state packed as `key`;
    /// returns whether that was its last.
    pub(super) fn take_one(&self, key: &mut [u64], slot: u32) -> bool {
        let (word, bit) = self.fields[slot as usize];
        key[word as usize] -= 1 << bit;
        key[word as usize] & self.masks[slot as usize] << bit == 0
    }

    /// Each slot's beads packed in `key`.
    fn counts<'k>(&'k self, key: &'k [u64]) -> impl Iterator<Item = u32> + 'k {
        (self.fields.iter().zip(&self.masks))
            .map(|(&(word, bit), &mask)| ((key[word as usize] >> bit) & mask) as u32)
    }

    /// The beads packed in `key`, into `beads` (any of `machine`'s).
    pub(super) fn unpack(&self, machine: &Machine, key: &[u64], beads: &mut Beads) {
        beads.refill(machine, self.counts(key));
    }

    /// All the beads packed in `key`.
    pub(super) fn total(&self, key: &[u64]) -> u64 {
        self.counts(key).map(u64::from).sum()
    }
}

/// Packed states numbered from 0 in the order added, found by their words.
#[derive(Default)]
pub(super) struct Numbered {
    words: usize,
    len: u32,
    /// Every state's words, one state after another.
    keys: Vec<u64>,
    table: HashTable<u32>,
}

impl Numbered {
    /// No states yet, of `words` words each.
    pub(super) fn new(words: usize) -> Numbered {
        Numbered {
            words,
            ..Numbered::default()
        }
    }

    /// The words of the state numbered `id`.
    pub(super) fn key(&self, id: u32) -> &[u64] {
        &self.keys[id as usize * self.words..(id as usize + 1) * self.words]
    }

    fn hash(key: &[u64]) -> u64 {
        let mut hasher = FxHasher::default();
        key.iter().for_each(|&w| hasher.write_u64(w));
        hasher.finish()
    }

    /// The number of the state packed as `key`, if added.
    pub(super) fn get(&self, key: &[u64]) -> Option<u32> {
        self.table
            .find(Numbered::hash(key), |&id| self.key(id) == key)
            .copied()
    }

    /// Every state's words, one state after another, leaving none.
    pub(super) fn take(&mut self) -> Vec<u64> {
        self.table.clear();
        self.len = 0;
        std::mem::take(&mut self.keys)
    }

    /// Adds the state packed as `key`, not added before, as the next number.
    pub(super) fn add(&mut self, key: &[u64]) -> u32 {
        let id = self.len;
        self.len += 1;
        self.keys.extend_from_slice(key);
        let (keys, words) = (&self.keys, self.words);
        let key_of = |id: &u32| &keys[*id as usize * words..(*id as usize + 1) * words];
        self.table
            .insert_unique(Numbered::hash(key), id, |id| Numbered::hash(key_of(id)));
        id
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::kit::fixtures::{self, HER};
    use matchbox_simulate::Setup;

    /// HER's machine under `rule`.
    fn her(rule: Rule) -> Machine {
        let (game, kit) = fixtures::pawns(HER);
        Setup::new(&game, &kit, rule, false).unwrap().machine
    }

    proptest! {
        #[test]
        fn a_state_packs_and_unpacks_to_the_same_beads(
            rule in prop::sample::select(vec![Rule::Gardner, Rule::GardnerReward]),
            seeds in prop::collection::vec(0u32..1_000, 64),
        ) {
            let machine = her(rule);
            let fresh = machine.fresh_beads();
            // Under `gardner` a count never rises above its fresh count; under a rule that
            // adds beads it can take any value.
            let counts: Vec<u32> = fresh
                .counts()
                .iter()
                .zip(seeds.iter().cycle())
                .map(|(&f, &x)| if rule == Rule::Gardner { x % (f + 1) } else { x })
                .collect();
            let beads = Beads::from_counts(&machine, counts).unwrap();
            let packing = Packing::new(&machine);
            let mut key = vec![0; packing.words];
            packing.pack(&beads, &mut key);
            let mut unpacked = machine.fresh_beads();
            packing.unpack(&machine, &key, &mut unpacked);
            prop_assert_eq!(unpacked, beads);
        }
    }

    #[test]
    fn states_are_numbered_in_the_order_added_and_found_by_their_words() {
        let machine = her(Rule::Gardner);
        let packing = Packing::new(&machine);
        // HER's moves start with one bead each: a bit per move, one word.
        assert_eq!(packing.words, 1);
        let mut numbered = Numbered::new(packing.words);
        let mut beads = machine.fresh_beads();
        let mut key = vec![0; packing.words];
        let mut keys = Vec::new();
        for slot in 0..beads.counts().len() as u32 {
            packing.pack(&beads, &mut key);
            assert_eq!(numbered.get(&key), None);
            assert_eq!(numbered.add(&key), slot);
            keys.push(key.clone());
            beads.set(&machine, slot, 0);
        }
        for (id, key) in keys.iter().enumerate() {
            assert_eq!(numbered.get(key), Some(id as u32));
        }
    }
}
