//! 猪国杀's rules: the catalogue (every rule of the statement, its own
//! sentence quoted) and where a game exercises each, read from `zhuguosha
//! --trace` as `kit show` replays it (`crate::pages::zhuguosha`).

use super::{Firing, Rule};
use crate::pages::zhuguosha::{self, Event, Known, Pig, Replay};

/// A rule of the catalogue.
const fn rule(id: &'static str, statement: &'static str, english: &'static str) -> Rule {
    Rule { id, statement, english }
}

/// Every rule of the statement, in the statement's order of topics: turns
/// and cards, 杀, 闪, 桃, death, 决斗, 南猪入侵, 万箭齐发, 无懈可击, 猪哥连弩,
/// identities, 类反猪, whom each role attacks, reward, penalty, the end.
pub const RULES: &[Rule] = &[
    rule(
        "turn-order",
        "开始游戏时，从主猪开始，按照逆时针方向（数据中就是按照编号从 1, 2, 3 … n, 1 … 的顺序）依次行动。",
        "Turns go in number order from MP: 1, 2, ..., n, 1, ..., the dead skipped.",
    ),
    rule(
        "draw-two",
        "摸牌阶段：从牌堆顶部摸 2 张牌，依次放到手牌的最右边；",
        "A turn begins with drawing the deck's top 2 cards onto the right end of the hand.",
    ),
    rule(
        "deck-empty",
        "由于数据问题，若牌堆已空，按照每次抽牌抽到的都是最后一张。",
        "Once the deck is used up, every card drawn is a copy of its last card.",
    ),
    rule(
        "leftmost-card",
        "出牌阶段：你可以使用任意张牌，每次使用牌的时候都使用最靠左的能够使用的牌。",
        "In its play phase a pig uses card after card, each time the leftmost one it can use.",
    ),
    rule(
        "rescan-hand",
        "每次使用牌的时候都使用最靠左的能够使用的牌。",
        "After every card used the hand is scanned again from the left: a card skipped before, \
         or one drawn mid-turn (a reward), may be the next.",
    ),
    rule(
        "discard-used",
        "任何牌被使用后被弃置（武器是装备上）；被弃置的牌以后都不能再用，即与游戏无关。",
        "A card used is discarded (a weapon is equipped) and never comes back.",
    ),
    rule(
        "kill-limit",
        "如果没有猪哥连弩，每个出牌阶段只能使用 1 次「杀」来攻击；",
        "Without a crossbow a pig uses at most one 杀 per turn, even with a target left.",
    ),
    rule(
        "kill-range",
        "无论有无武器，杀的攻击范围都是 1。",
        "杀 reaches only the next living pig, armed or not.",
    ),
    rule(
        "distance-after-death",
        "注意一个角色的死亡会导致一些猪距离的改变；",
        "A death changes distances: the next living pig may be further on.",
    ),
    rule(
        "kill-damage",
        "如果没有被『闪』抵消，则造成 1 点伤害。",
        "A 杀 that no 闪 cancels deals 1 damage; its user is the source.",
    ),
    rule(
        "dodge",
        "受到杀时，有闪必然弃置；",
        "A pig attacked with 杀 always discards a 闪 if it has one, cancelling the 杀.",
    ),
    rule(
        "peach-heal",
        "在自己的回合内，如果自己的体力值不等于体力上限，那么使用 1 个桃可以为自己补充 1 点体力",
        "In its turn a hurt pig always eats a 桃 it holds, for 1 hp.",
    ),
    rule(
        "peach-full",
        "否则不能使用桃；桃只能对自己使用；",
        "A pig at full health (4) cannot eat a 桃; a 桃 only ever heals its user.",
    ),
    rule(
        "peach-dying",
        "在自己的回合外，如果自己的血变为 0 或者更低，那么也可以使用。",
        "A pig at 0 hp or below eats 桃 (in or out of its turn) until it is back at 1.",
    ),
    rule(
        "death",
        "如果该玩家的体力降到 0 或者更低，并且自己手中没有足够的桃使得自己的体力值回到 1，那么就死亡了，\
         死亡后所有的牌（装备区，手牌区）被弃置；",
        "A pig at 0 hp or below without enough 桃 dies; its hand and weapon are discarded.",
    ),
    rule(
        "damage-source",
        "伤害来源：杀、南猪入侵、万箭齐发的伤害来源均是使用该牌的猪，决斗的伤害来源如上；",
        "The source of a damage (which decides reward and penalty) is the card's user; a duel's is \
         the winner of the duel.",
    ),
    rule(
        "duel",
        "由目标角色先开始，自己和目标角色轮流弃置 1 张杀，首先没有杀可弃的一方受到 1 点伤害，",
        "决斗: the target first, the two discard 杀 in turn; the first without one takes 1 damage.",
    ),
    rule(
        "duel-source",
        "另一方视为此伤害的来源。",
        "The other side is the duel's damage source: the target, when the duel's user loses.",
    ),
    rule(
        "duel-range",
        "『决斗 / F』出牌阶段，对除自己以外任意 1 名角色使用",
        "决斗 may be used on any other pig, at any distance.",
    ),
    rule(
        "duel-all-out",
        "决斗时会不遗余力弃置杀；",
        "In a duel a pig discards 杀 as long as it has one (but see duel-loyal-vs-main).",
    ),
    rule(
        "duel-loyal-vs-main",
        "决斗时，如果对方是主猪，那么不会弃置杀，否则，会不遗余力弃置杀；",
        "A loyal pig dueled by MP discards no 杀 and takes the damage.",
    ),
    rule(
        "invasion",
        "『南猪入侵 / N』出牌阶段，对除你以外所有角色使用，按逆时针顺序从使用者下家开始依次结算，\
         除非弃置 1 张杀，否则受到 1 点伤害。",
        "南猪入侵 hits every other pig in turn order from the user's next: each discards a 杀 or \
         takes 1 damage.",
    ),
    rule(
        "arrows",
        "『万箭齐发 / W』和南猪入侵类似，不过要弃置的不是杀而是闪。",
        "万箭齐发 is the same, answered with 闪.",
    ),
    rule(
        "area-answer",
        "响应南猪入侵或者万箭齐发时候，有杀 / 闪必然弃置；",
        "A pig hit by 南猪入侵 / 万箭齐发 always discards the 杀 / 闪 it has.",
    ),
    rule(
        "area-always",
        "有南猪入侵、万箭齐发、必然使用；",
        "A pig always uses 南猪入侵 and 万箭齐发, even when they hurt its own side.",
    ),
    rule(
        "negate",
        "『无懈可击 / J』在目标锦囊生效前抵消其效果。",
        "无懈可击 cancels a trick before it takes effect.",
    ),
    rule(
        "negate-order",
        "每次有 1 张锦囊即将生效时，从使用这张锦囊的猪开始，按照逆时针顺序，依次得到使用无懈可击的机会；",
        "Each time a trick is about to take effect, the pigs may play 无懈可击 in turn order from \
         the trick's user: the first willing pig with one plays it.",
    ),
    rule(
        "negate-duel",
        "用于决斗时，决斗无效并弃置；",
        "A 决斗 countered by 无懈可击 has no effect.",
    ),
    rule(
        "negate-area",
        "用于南猪入侵或万箭齐发时，当结算到某个角色时才能使用，当前角色不需弃置牌并且不会受到伤害（仅对 1 个角色产生效果）；",
        "On 南猪入侵 / 万箭齐发 a 无懈可击 protects only the pig being settled.",
    ),
    rule(
        "negate-chain",
        "用于无懈可击时，成为目标的无懈可击被无效。",
        "无懈可击 counters 无懈可击, again and again: a trick is cancelled iff an odd number were \
         played on it.",
    ),
    rule(
        "courtesy-known-only",
        "不会对未表明身份的猪献殷勤（包括自己）。",
        "Nobody helps a pig that has not revealed itself, not even itself (MP is known to all).",
    ),
    rule(
        "main-courtesy",
        "如果能对已经跳忠的猪或自己献殷勤，那么一定献；",
        "MP always protects a revealed loyal pig or itself with 无懈可击.",
    ),
    rule(
        "loyal-courtesy",
        "如果有机会对主猪或者已经跳忠的猪献殷勤，那么一定献。",
        "A loyal pig always protects MP or a revealed loyal pig with 无懈可击.",
    ),
    rule(
        "rebel-courtesy",
        "如果有机会对已经跳反的猪献殷勤，那么一定献。",
        "A rebel always protects a revealed rebel with 无懈可击.",
    ),
    rule(
        "negate-hostility",
        "表敌意：对某个角色使用杀、决斗；使用无懈可击抵消献殷勤；",
        "Countering a 无懈可击 played as courtesy is hostility: enemies of the protected pig do it.",
    ),
    rule(
        "equip",
        "有装备必然装上；",
        "A pig always equips a 猪哥连弩 it holds.",
    ),
    rule(
        "crossbow-kills",
        "『猪哥连弩 / Z』武器，攻击范围 1，出牌阶段你可以使用任意张杀;",
        "With a crossbow a pig may use any number of 杀 in its turn.",
    ),
    rule(
        "crossbow-replace",
        "同一时刻最多只能装 1 把武器；如果先前已经有了 1 把武器，那么之后再装武器的话，会弃置以前的武器来装现在的武器。",
        "A second crossbow replaces the first: a pig never keeps a 猪哥连弩 in hand.",
    ),
    rule(
        "reveal-loyal",
        "跳忠行动就是对主猪或对某只已经跳忠的猪献殷勤，或者对某只已经跳反的猪表敌意；",
        "A loyal pig reveals itself by helping MP or a revealed loyal pig, or by hostility to a \
         revealed rebel (loyal pigs never pose as rebels; a pig reveals whenever it can).",
    ),
    rule(
        "reveal-rebel",
        "跳反行动就是对主猪或对某只已经跳忠的猪表敌意，或者对某只已经跳反的猪献殷勤。",
        "A rebel reveals itself by hostility to MP or a revealed loyal pig, or by helping a \
         revealed rebel.",
    ),
    rule(
        "answer-no-reveal",
        "献殷勤：使用无懈可击挡下南猪入侵、万箭齐发、决斗；使用无懈可击抵消表敌意；",
        "Only 杀, 决斗 and 无懈可击 show a role: answering (闪 to 杀 or 万箭齐发, 杀 in a duel or \
         to 南猪入侵) reveals nothing.",
    ),
    rule(
        "area-no-reveal",
        "表敌意：对某个角色使用杀、决斗；",
        "Using 南猪入侵 or 万箭齐发 is hostility to nobody in particular: it reveals nothing.",
    ),
    rule(
        "like-rebel-mark",
        "主猪会认为「没有跳身份，且用南猪入侵 / 万箭齐发对自己造成伤害的猪」是类反猪",
        "MP labels 类反猪 a pig that, not revealed, hurts MP with 南猪入侵 or 万箭齐发.",
    ),
    rule(
        "like-rebel-needs-damage",
        "（没伤害到不算，注意类反猪并没有表明身份）",
        "No label if MP loses no hp to it (MP answered, or was protected); the label reveals \
         nothing.",
    ),
    rule(
        "like-rebel-revealed",
        "没有跳身份",
        "A pig already revealed is never labelled 类反猪, however much it hurts MP.",
    ),
    rule(
        "like-rebel-cleared",
        "如果之后跳了，那么主猪会重新认识这只猪；",
        "The 类反猪 label goes when the pig reveals itself.",
    ),
    rule(
        "main-hostility",
        "对于每种表敌意的方式，对逆时针方向能够执行到的第一只类反猪或者已跳反猪表；如果没有，那么就不表敌意；",
        "MP attacks the first pig in turn order that is a 类反猪 or a revealed rebel (with 杀 only \
         the next pig); if there is none, nobody.",
    ),
    rule(
        "loyal-hostility",
        "对于每种表敌意的方式，对「逆时针方向能够执行到的第一只已经跳反的猪」表，如果没有，那么就不表敌意；",
        "A loyal pig attacks the first revealed rebel in turn order (with 杀 only the next pig); \
         if there is none, nobody.",
    ),
    rule(
        "rebel-hostility",
        "对于每种表敌意的方式，如果有机会则对主猪表，否则，对「逆时针方向能够执行到的第一只已经跳忠的猪」表，如果没有，那么就不表敌意；",
        "A rebel attacks MP when it can (a 决斗 always can), else the first revealed loyal pig; \
         if there is none, nobody.",
    ),
    rule(
        "reward",
        "反猪死亡时，最后一个伤害来源处（即使是反猪）立即摸 3 张牌。",
        "When a rebel dies, its last damage source (even a rebel) draws 3 cards at once.",
    ),
    rule(
        "penalty",
        "忠猪死亡时，如果最后一个伤害来源是主猪，那么主猪所有装备牌、手牌被弃置。",
        "When MP kills a loyal pig, MP discards its whole hand and its weapon.",
    ),
    rule(
        "penalty-main-only",
        "如果最后一个伤害来源是主猪",
        "A loyal pig killed by anyone but MP costs its killer nothing.",
    ),
    rule(
        "penalty-turn-goes-on",
        "那么主猪所有装备牌、手牌被弃置。",
        "The penalty takes only the cards: MP's turn, and the trick being settled, go on.",
    ),
    rule(
        "crossbow-lost",
        "主猪所有装备牌、手牌被弃置",
        "MP's crossbow goes with the penalty: one 杀 per turn again.",
    ),
    rule(
        "main-wins",
        "主猪 / MP：自己存活的情况下消灭所有的反猪。",
        "MP's side wins when every rebel is dead and MP lives (at once if there is no rebel).",
    ),
    rule(
        "rebels-win",
        "反猪 / FP：杀死主猪。",
        "The rebels win when MP dies.",
    ),
    rule(
        "last-rebel-no-reward",
        "因此即使会摸 3 张牌或者还有牌可以用也不用执行了。",
        "The last rebel's death ends the game: its killer draws no reward.",
    ),
    rule(
        "game-end",
        "注意：一旦达成胜利条件，游戏立刻结束，因此即使会摸 3 张牌或者还有牌可以用也不用执行了。",
        "The game ends the moment a side has won: no reward for the last rebel, nothing further \
         settled.",
    ),
];

/// Where the game traced by `trace` (`zhuguosha --trace`'s stderr) on
/// `input` exercises each rule, by trace line: the trace replayed as `kit
/// show` replays it (every pig's hand, hp, weapon and what the others know
/// after each line), each line read for the rules it shows, and the
/// solver's own `rule ID P` lines for a rule that decided not to act.
/// Where a turn ends with a 杀 or 决斗 still in hand the pig found no
/// target (its role's hostility rule; `kill-range` too if a pig it is
/// hostile to lives further on), or was held back (the solver's
/// `kill-limit` line); with a 桃 at full health, `peach-full`.
///
/// # Errors
/// A trace that cannot be replayed, or a rule id not in [`RULES`], as a
/// message.
pub fn firings(input: &str, trace: &str) -> Result<Vec<Firing>, String> {
    firings_of(&zhuguosha::replay_of_trace(input, trace)?)
}

/// The ids that fire at each event of `replay` (`kit show`'s marks), in
/// catalogue order.
///
/// # Errors
/// As [`firings`]'.
pub fn per_event(replay: &Replay) -> Result<Vec<Vec<&'static str>>, String> {
    let mut at = vec![Vec::new(); replay.events.len()];
    let index: std::collections::HashMap<usize, usize> =
        replay.events.iter().enumerate().map(|(k, e)| (e.at, k)).collect();
    for firing in firings_of(replay)? {
        if let Some(&k) = index.get(&firing.line) {
            at[k].push(firing.rule);
        }
    }
    let order = |id: &str| RULES.iter().position(|r| r.id == id);
    for ids in &mut at {
        ids.sort_by_key(|id| order(id));
        ids.dedup();
    }
    Ok(at)
}

/// [`firings`] of a replayed trace.
///
/// # Errors
/// As [`firings`]'.
pub fn firings_of(replay: &Replay) -> Result<Vec<Firing>, String> {
    let mut walk = Walk { replay, fired: Vec::new(), turn: None, trick: Trick::None };
    for (i, event) in replay.events.iter().enumerate() {
        walk.event(i, event)?;
    }
    if replay.events.last().is_some_and(|e| !e.line.starts_with("end")) {
        // A game cut off (it never ends): its last turn ends here.
        walk.turn_end(replay.events.len());
    }
    Ok(walk.fired)
}

/// MP and the loyal pigs are one side, the rebels the other.
fn same_side(a: &str, b: &str) -> bool {
    (a == "FP") == (b == "FP")
}

/// Not (yet) revealed: unknown, or only MP's 类反猪 label.
fn unrevealed(pig: &Pig) -> bool {
    matches!(pig.known, Known::Unknown | Known::LikeRebel)
}

/// The hostility rule of a role.
fn hostility(role: &str) -> &'static str {
    match role {
        "MP" => "main-hostility",
        "ZP" => "loyal-hostility",
        _ => "rebel-hostility",
    }
}

/// The turn being played.
struct Turn {
    pig: usize,
    /// 杀 used so far in it.
    kills: usize,
    /// Where in the hand the last card used was (0-based).
    last_play: Option<usize>,
    /// The pig drew cards mid-turn (a reward) since its last card used.
    rewarded: bool,
    /// The solver said `kill-limit` in it.
    limit_said: bool,
}

/// The card being settled: what an `answer`, `damage` or `negate` line
/// answers.
#[derive(Clone, Copy)]
enum Trick {
    None,
    Kill,
    /// `fights`: not a loyal pig dueled by MP, which discards nothing.
    Duel {
        user: usize,
        fights: bool,
    },
    Area {
        user: usize,
        play: usize,
        user_unrevealed: bool,
        main: MainHit,
    },
}

/// What a 南猪入侵 / 万箭齐发 did to MP (for the 类反猪 label).
#[derive(Clone, Copy, Default)]
struct MainHit {
    damaged: bool,
    /// MP answered it, or a 无懈可击 was played over MP.
    spared: bool,
}

struct Walk<'r> {
    replay: &'r Replay,
    fired: Vec<Firing>,
    turn: Option<Turn>,
    trick: Trick,
}

impl Walk<'_> {
    fn fire(&mut self, line: usize, rule: &'static str) {
        self.fired.push(Firing { line, rule });
    }

    /// The next living pig after `p` before event `i`.
    fn next_alive(&self, i: usize, p: usize) -> usize {
        let pigs = &self.replay.states[i];
        let n = pigs.len();
        (1..n).map(|d| (p + d) % n).find(|&q| !pigs[q].dead).unwrap_or(p)
    }

    /// Whether, before event `i`, a living pig on `target`'s side holds a
    /// 无懈可击 (and would protect it, were it known).
    fn could_be_protected(&self, i: usize, target: usize) -> bool {
        let roles = &self.replay.roles;
        let pigs = &self.replay.states[i];
        (0..pigs.len()).any(|q| {
            !pigs[q].dead && pigs[q].hand.contains('J') && same_side(&roles[q], &roles[target])
        })
    }

    /// A trick about to take effect on `target` before event `i`, shown at
    /// `line`: nobody helps an unrevealed pig.
    fn trick_on(&mut self, i: usize, line: usize, target: usize) {
        let known = target == 0 || !unrevealed(&self.replay.states[i][target]);
        if !known && self.could_be_protected(i, target) {
            self.fire(line, "courtesy-known-only");
        }
    }

    /// The card being settled is done: a 南猪入侵 / 万箭齐发 by an
    /// unrevealed pig that spared MP labels nobody.
    fn settled(&mut self) {
        if let Trick::Area { play, user_unrevealed: true, main, .. } = self.trick {
            if main.spared && !main.damaged {
                self.fire(play, "like-rebel-needs-damage");
            }
        }
        self.trick = Trick::None;
    }

    /// The turn ends after `events[..i]`: what it held back.
    fn turn_end(&mut self, i: usize) {
        self.settled();
        let Some(turn) = self.turn.take() else { return };
        let line = self.replay.events[i - 1].at;
        let pig = &self.replay.states[i][turn.pig];
        if pig.dead {
            return;
        }
        if pig.hand.contains('P') && pig.hp >= 4 {
            self.fire(line, "peach-full");
        }
        let kill = pig.hand.contains('K');
        let limited = kill && !pig.weapon && turn.kills > 0;
        // Attacking nobody is a choice only where a pig of unknown role
        // could have been taken for a target.
        let next = self.next_alive(i, turn.pig);
        let pigs = &self.replay.states[i];
        let doubtful = |q: usize| q != turn.pig && !pigs[q].dead && unrevealed(&pigs[q]);
        let duel_held = pig.hand.contains('F') && (0..pigs.len()).any(doubtful);
        if duel_held || (kill && !limited && doubtful(next)) || (limited && !turn.limit_said) {
            self.fire(line, hostility(&self.replay.roles[turn.pig]));
        }
        // A 杀 kept while a pig it is hostile to is alive further on.
        if kill && !limited {
            let next = self.next_alive(i, turn.pig);
            let pigs = &self.replay.states[i];
            let far = (0..pigs.len()).any(|q| {
                q != turn.pig && q != next && !pigs[q].dead && self.hostile(turn.pig, q, &pigs[q])
            });
            if far {
                self.fire(line, "kill-range");
            }
        }
    }

    /// Whether pig `p` is hostile to pig `q` (in state `target`) by what
    /// it knows: the roles' hostility rules read from the books.
    fn hostile(&self, p: usize, q: usize, target: &Pig) -> bool {
        match (self.replay.roles[p].as_str(), target.known) {
            ("MP", known) => matches!(known, Known::LikeRebel | Known::Rebel),
            ("ZP", known) => known == Known::Rebel,
            (_, known) => q == 0 || known == Known::Loyal || known == Known::Main,
        }
    }

    /// The rules event `i` shows.
    fn event(&mut self, i: usize, e: &Event) -> Result<(), String> {
        let w: Vec<&str> = e.line.split(' ').collect();
        let word = |k: usize| w.get(k).copied().unwrap_or("");
        let (before, line) = (&self.replay.states[i], e.at);
        let roles = &self.replay.roles;
        let p = e.source.unwrap_or(0);
        match w[0] {
            "turn" => {
                if i > 0 {
                    self.turn_end(i);
                }
                self.turn = Some(Turn {
                    pig: p,
                    kills: 0,
                    last_play: None,
                    rewarded: false,
                    limit_said: false,
                });
                self.fire(line, "turn-order");
            }
            "draw" => {
                self.fire(line, "draw-two");
                self.drew(i, line, w.len() - 2);
            }
            "play" => self.play(i, e, word(2))?,
            "reveal" if word(2) == "ZP" => self.fire(line, "reveal-loyal"),
            "reveal" => self.fire(line, "reveal-rebel"),
            "mark" => self.fire(line, "like-rebel-mark"),
            // MP attacks a revealed rebel anyway: the label's going
            // matters only for a loyal pig.
            "unmark" if roles[p] == "ZP" => self.fire(line, "like-rebel-cleared"),
            "negate" => {
                self.fire(line, "negate");
                // `negate P counters C of S SIDE T`: the pigs on T's side
                // protect it, the others counter.
                let courtesy = word(6) != "against";
                let target = word(7).parse::<usize>().map_or(0, |t| t.saturating_sub(1));
                let holder = |q: usize, friend: bool| {
                    q != p
                        && !before[q].dead
                        && before[q].hand.contains('J')
                        && same_side(&roles[q], &roles[target]) == friend
                };
                // The order decides only between two willing pigs.
                if (0..before.len()).any(|q| holder(q, courtesy)) {
                    self.fire(line, "negate-order");
                }
                self.fire(
                    line,
                    match word(3) {
                        "F" => "negate-duel",
                        "J" => "negate-chain",
                        _ => "negate-area",
                    },
                );
                self.fire(
                    line,
                    match (word(6), roles[p].as_str()) {
                        ("against", _) => "negate-hostility",
                        (_, "MP") => "main-courtesy",
                        (_, "ZP") => "loyal-courtesy",
                        _ => "rebel-courtesy",
                    },
                );
                // A friend of T holding a 无懈可击 leaves this one standing:
                // only T's enemies counter it.
                if courtesy && (0..before.len()).any(|q| holder(q, true)) {
                    self.fire(line, "negate-hostility");
                }
                if let Trick::Area { ref mut main, .. } = self.trick {
                    if word(7) == "1" {
                        main.spared = true;
                    }
                }
            }
            "answer" => {
                if p != 0 && unrevealed(&before[p]) {
                    self.fire(line, "answer-no-reveal");
                }
                match self.trick {
                    Trick::Kill => self.fire(line, "dodge"),
                    Trick::Duel { .. } => {
                        self.fire(line, "duel");
                        self.fire(line, "duel-all-out");
                    }
                    Trick::Area { ref mut main, .. } => {
                        if p == 0 {
                            main.spared = true;
                        }
                        self.fire(line, "area-answer");
                        self.trick_on(i, line, p);
                    }
                    Trick::None => {}
                }
            }
            "damage" => {
                let victim = e.target.unwrap_or(0);
                match self.trick {
                    Trick::Kill => self.fire(line, "kill-damage"),
                    Trick::Duel { user, fights } => {
                        if fights {
                            self.fire(line, "duel");
                        }
                        if victim == user {
                            self.fire(line, "duel-source");
                        }
                    }
                    Trick::Area { user, ref mut main, .. } => {
                        if victim == 0 {
                            main.damaged = true;
                            let label = if user == 0 {
                                None
                            } else if unrevealed(&before[user]) {
                                Some("like-rebel-mark")
                            } else if before[user].known == Known::Loyal {
                                // A revealed rebel is MP's target anyway.
                                Some("like-rebel-revealed")
                            } else {
                                None
                            };
                            if let Some(label) = label {
                                self.fire(line, label);
                            }
                        }
                        self.trick_on(i, line, victim);
                    }
                    Trick::None => {}
                }
            }
            "peach" => self.fire(line, "peach-dying"),
            "death" => self.death(i, e, &w),
            "rule" => {
                let rule = super::find("zhuguosha", word(1))
                    .ok_or_else(|| format!("trace line {line}: no rule `{}`", word(1)))?;
                if rule.id == "kill-limit" {
                    if let Some(turn) = &mut self.turn {
                        turn.limit_said = true;
                    }
                }
                self.fire(line, rule.id);
            }
            "end" => {
                self.settled();
                self.turn = None;
                self.fire(line, if word(1) == "MP" { "main-wins" } else { "rebels-win" });
                self.fire(line, "game-end");
            }
            _ => {}
        }
        Ok(())
    }

    /// `count` cards drawn at event `i`: past the deck's end, copies of
    /// its last card.
    fn drew(&mut self, i: usize, line: usize, count: usize) {
        let drawn = if i == 0 { 0 } else { self.replay.events[i - 1].drawn };
        if drawn + count > self.replay.deck.len() {
            self.fire(line, "deck-empty");
        }
    }

    /// `play P C ...` at event `i`.
    fn play(&mut self, i: usize, e: &Event, card: &str) -> Result<(), String> {
        self.settled();
        let (before, line) = (&self.replay.states[i], e.at);
        let p = e.source.unwrap_or(0);
        let role = self.replay.roles[p].clone();
        let at =
            before[p].hand.find(card).ok_or_else(|| format!("trace line {line}: no {card}"))?;
        if at > 0 {
            self.fire(line, "leftmost-card");
        }
        let mut kills = 0;
        if let Some(turn) = &mut self.turn {
            let back = turn.last_play.is_some_and(|last| at < last);
            let rescan = back || turn.rewarded;
            turn.last_play = Some(at);
            turn.rewarded = false;
            kills = turn.kills;
            if card == "K" {
                turn.kills += 1;
            }
            if rescan {
                self.fire(line, "rescan-hand");
            }
        }
        if card != "Z" {
            self.fire(line, "discard-used");
        }
        let target = e.target.unwrap_or(p);
        match card {
            "P" => self.fire(line, "peach-heal"),
            "K" => {
                self.fire(line, "kill-range");
                self.fire(line, hostility(&role));
                if target != (p + 1) % before.len() {
                    self.fire(line, "distance-after-death");
                }
                if kills > 0 {
                    self.fire(line, "crossbow-kills");
                }
                self.trick = Trick::Kill;
            }
            "F" => {
                // A rebel's 决斗 always reaches MP: its rule chooses only
                // where a revealed loyal pig is there too.
                let loyal_known = (1..before.len())
                    .any(|q| q != p && !before[q].dead && before[q].known == Known::Loyal);
                if role != "FP" || loyal_known {
                    self.fire(line, hostility(&role));
                }
                if target != self.next_alive(i, p) {
                    self.fire(line, "duel-range");
                }
                let fights = !(role == "MP" && self.replay.roles[target] == "ZP");
                if !fights {
                    self.fire(line, "duel-loyal-vs-main");
                }
                self.trick_on(i, line, target);
                self.trick = Trick::Duel { user: p, fights };
            }
            "N" | "W" => {
                self.fire(line, if card == "N" { "invasion" } else { "arrows" });
                let roles = &self.replay.roles;
                let friends = (0..before.len())
                    .any(|q| q != p && !before[q].dead && same_side(&roles[q], &role));
                if friends {
                    self.fire(line, "area-always");
                }
                let user_unrevealed = p != 0 && unrevealed(&before[p]);
                if user_unrevealed {
                    self.fire(line, "area-no-reveal");
                }
                let main = MainHit::default();
                self.trick = Trick::Area { user: p, play: line, user_unrevealed, main };
            }
            _ => {
                self.fire(line, "equip");
                if before[p].weapon {
                    self.fire(line, "crossbow-replace");
                }
            }
        }
        Ok(())
    }

    /// `death P ROLE by S [reward C C C | penalty]` at event `i`.
    fn death(&mut self, i: usize, e: &Event, w: &[&str]) {
        let (before, line) = (&self.replay.states[i], e.at);
        let by = e.source.unwrap_or(0);
        self.fire(line, "death");
        match (w[2], w.get(5).copied()) {
            ("FP", reward) => {
                self.fire(line, "damage-source");
                // Every rebel's death asks whether MP's side has won.
                self.fire(line, "main-wins");
                if self.replay.events.get(i + 1).is_some_and(|e| e.line == "end MP") {
                    self.fire(line, "last-rebel-no-reward");
                }
                if reward == Some("reward") {
                    self.fire(line, "reward");
                    self.drew(i, line, 3);
                    if let Some(turn) = &mut self.turn {
                        if turn.pig == by {
                            turn.rewarded = true;
                        }
                    }
                }
            }
            ("ZP", Some("penalty")) => {
                self.fire(line, "damage-source");
                self.fire(line, "penalty");
                if before[0].weapon {
                    self.fire(line, "crossbow-lost");
                }
                // The turn going on shows only where MP plays again in it
                // (after a reward drawn while its trick is settled).
                let rest = &self.replay.events[i + 1..];
                let turn_rest = rest.iter().take_while(|e| !e.line.starts_with("turn "));
                let plays_on =
                    turn_rest.filter(|e| e.line.starts_with("play ")).any(|e| e.source == Some(0));
                if self.turn.as_ref().is_some_and(|t| t.pig == 0) && plays_on {
                    self.fire(line, "penalty-turn-goes-on");
                }
            }
            ("ZP", _) => {
                self.fire(line, "damage-source");
                self.fire(line, "penalty-main-only");
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement's sample, traced (tests/data/zhuguosha/trace/sample.err).
    const SAMPLE: &str = "3 10\nMP D D F F\nZP N N N D\nFP J J J J\nF F D D J J F F K D\n";
    const SAMPLE_TRACE: &str = "\
turn 1 pig 1 MP hp 4 weapon no hand D D F F
draw 1 F F
turn 2 pig 2 ZP hp 4 weapon no hand N N N D
draw 2 D D
play 2 N
damage 3 by 2 hp 3
mark 2
damage 1 by 2 hp 3
play 2 N
damage 3 by 2 hp 2
damage 1 by 2 hp 2
play 2 N
damage 3 by 2 hp 1
damage 1 by 2 hp 1
turn 3 pig 3 FP hp 1 weapon no hand J J J J
draw 3 J J
turn 4 pig 1 MP hp 1 weapon no hand D D F F F F
draw 1 F F
play 1 F on 2
damage 2 by 1 hp 3
play 1 F on 2
damage 2 by 1 hp 2
play 1 F on 2
damage 2 by 1 hp 1
play 1 F on 2
damage 2 by 1 hp 0
death 2 ZP by 1 penalty
turn 5 pig 3 FP hp 1 weapon no hand J J J J J J
draw 3 K D
play 3 K on 1
reveal 3 FP
damage 1 by 3 hp 0
death 1 MP by 3
end FP
";

    fn exercised(input: &str, trace: &str) -> super::super::Exercised {
        super::super::Exercised::from_firings(firings(input, trace).unwrap())
    }

    /// The sample's story (样例解释), rule by rule.
    #[test]
    fn the_sample_exercises_the_rules_its_explanation_tells() {
        let e = exercised(SAMPLE, SAMPLE_TRACE);
        let lines = |id: &str| e.lines(id);
        // "主猪没有目标可以表敌意": MP ends turn 1 holding 决斗 (line 2); its
        // duels on the 类反猪 later.
        assert_eq!(lines("main-hostility"), [2, 19, 21, 23, 25]);
        // "主猪掉了 3 点体力，并认为该角色为类反猪": the label and each hurt.
        assert_eq!(lines("like-rebel-mark"), [7, 8, 11, 14]);
        assert_eq!(lines("area-no-reveal"), [5, 9, 12]);
        // "3 号角色尽管手里有无懈可击，但是因为自己未表明身份，所以同样不能对自己用".
        assert_eq!(lines("courtesy-known-only"), [6, 10, 13]);
        // "主猪对着类反猪爆发，使用 4 张决斗，忠猪死亡，结果主猪弃掉所有牌".
        assert_eq!(lines("duel-loyal-vs-main"), [19, 21, 23, 25]);
        assert!(lines("duel").is_empty() && lines("duel-all-out").is_empty());
        assert_eq!(lines("penalty"), [27]);
        // MP has no card left to play on: its turn going on shows nothing.
        assert!(lines("penalty-turn-goes-on").is_empty());
        assert!(lines("crossbow-lost").is_empty() && lines("penalty-main-only").is_empty());
        // "反猪摸到 1 张杀直接杀死主猪获胜".
        assert_eq!(lines("rebel-hostility"), [30]);
        assert_eq!(lines("kill-range"), [30]);
        assert_eq!(lines("reveal-rebel"), [31]);
        assert_eq!(lines("kill-damage"), [32]);
        assert_eq!(lines("rebels-win"), [34]);
        assert_eq!(lines("turn-order"), [1, 3, 15, 17, 28]);
        assert_eq!(lines("draw-two"), [2, 4, 16, 18, 29]);
        // 10 cards, 10 drawn: the deck never runs out.
        assert!(lines("deck-empty").is_empty() && lines("kill-limit").is_empty());
        assert!(!e.rules.contains("negate") && !e.rules.contains("reward"));
    }

    /// The 杀 limit, from the solver's own `rule` line; the turn it ends
    /// names no hostility rule (the target was there).
    #[test]
    fn the_kill_limit_comes_from_the_solvers_rule_line() {
        let input = "2 6\nMP K K D D\nFP K P P P\nD D D D D D\n";
        let trace = "\
turn 1 pig 1 MP hp 4 weapon no hand K K D D
draw 1 D D
turn 2 pig 2 FP hp 4 weapon no hand K P P P
draw 2 D D
play 2 K on 1
reveal 2 FP
answer 1 D
turn 3 pig 1 MP hp 4 weapon no hand K K D D D
draw 1 D D
play 1 K on 2
answer 2 D
rule kill-limit 1
";
        let e = exercised(input, trace);
        assert_eq!(e.lines("kill-limit"), [12]);
        // Turn 1: MP keeps its 杀 for want of a target; turn 3: it uses one.
        assert_eq!(e.lines("main-hostility"), [2, 10]);
        assert_eq!(e.lines("rebel-hostility"), [5]);
        assert_eq!(e.lines("dodge"), [7, 11]);
        assert_eq!(e.lines("kill-range"), [5, 10]);
        // MP answers (known anyway), pig 2 had revealed itself: no one hides.
        assert!(e.lines("answer-no-reveal").is_empty());
        // P P P at full health in pig 2's hand as its turn ends.
        assert_eq!(e.lines("peach-full"), [7]);
    }

    /// MP keeps its 杀: the next pig is a loyal one, the revealed rebel is
    /// further on. Its turn exercises the range as well as its hostility.
    #[test]
    fn a_kill_kept_for_a_pig_out_of_range_exercises_the_range() {
        let input = "3 4\nMP K D D D\nZP D D D D\nFP K D D D\nD D D D\n";
        let trace = "\
turn 1 pig 1 MP hp 4 weapon no hand K D D D
draw 1 D D
turn 2 pig 2 ZP hp 4 weapon no hand D D D D
draw 2 D D
turn 3 pig 3 FP hp 4 weapon no hand K D D D
draw 3 D D
play 3 K on 1
reveal 3 FP
answer 1 D
turn 4 pig 1 MP hp 4 weapon no hand K D D D D
draw 1 D D
turn 5 pig 2 ZP hp 4 weapon no hand D D D D D D
";
        let e = exercised(input, trace);
        // Turn 1: the rebel is unknown, so out of range does not matter.
        assert_eq!(e.lines("kill-range"), [7, 11]);
        assert_eq!(e.lines("main-hostility"), [2, 11]);
        assert!(e.lines("distance-after-death").is_empty());
    }

    #[test]
    fn a_rule_id_the_catalogue_lacks_is_an_error() {
        let input = "2 1\nMP D D D D\nFP D D D D\nD\n";
        let trace = "turn 1 pig 1 MP hp 4 weapon no hand D D D D\nrule no-such-rule 1\n";
        let err = firings(input, trace).unwrap_err();
        assert_eq!(err, "trace line 2: no rule `no-such-rule`");
    }
}
