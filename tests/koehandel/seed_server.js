// A Koehandel player written from the contest's text alone (seed 002, "communicatie" and
// "praktisch"), as a contestant would write it: an HTTP server that answers the server's GET
// requests with a plain-text body in GET form, `?var1=value1&var2=value2`.
//   node seed_server.js PORT
// It keeps its own cards from what it is told, bids up to half an animal's value, uses its right
// to buy when the price is low, accepts every trade offered to it, and once the deck is empty
// challenges a player it saw take an animal it holds too.
'use strict';
const http = require('http');

const MONEY = { n: 0, t: 10, f: 50, h: 100, T: 200, F: 500 };
const GOODS = { A: 10, B: 40, C: 90, D: 160, E: 250, F: 350, G: 500, H: 650, I: 800, J: 1000 };

const cards = { n: 2, t: 4, f: 1, h: 0, T: 0, F: 0 };  // "initieel"
const mine = {};                                       // animal -> how many we hold
const theirs = { W: {}, N: {}, E: {} };                // what we saw the others take
let offered = null;                                    // our opening offer in a trade, until paid
let challenged = null;                                 // [player, animal] of our last trade

const worth = (letters) => [...letters].reduce((sum, c) => sum + (MONEY[c] || 0), 0);
const total = () => Object.keys(cards).reduce((sum, c) => sum + cards[c] * MONEY[c], 0);
const add = (bag, letters, sign) => {
  for (const c of letters) if (c in bag || /[A-J]/.test(c)) bag[c] = (bag[c] || 0) + sign;
};
// A value written in money letters, largest first (a bid need not be cards one holds).
function spell(value) {
  let out = '';
  for (const c of ['F', 'T', 'h', 'f', 't']) while (value >= MONEY[c]) { out += c; value -= MONEY[c]; }
  return out || 'n';
}
// Cards we hold that cover `amount`: smallest first, then drop what is not needed.
function pay(amount) {
  const chosen = [];
  let sum = 0;
  for (const c of ['t', 'f', 'h', 'T', 'F']) {
    for (let k = 0; k < cards[c] && sum < amount; ++k) { chosen.push(c); sum += MONEY[c]; }
  }
  if (sum < amount) return '';
  for (let i = 0; i < chosen.length; ++i) {
    if (sum - MONEY[chosen[i]] >= amount) { sum -= MONEY[chosen[i]]; chosen.splice(i--, 1); }
  }
  return chosen.join('');
}

function answer(q) {
  const goods = q.goods || '', money = q.money || '';
  switch (q.type) {
    case 'start': {
      // A trade for a kind we hold two of and saw another player take; else an auction (also
      // what an invalid trade turns into while animals are left).
      for (const kind of Object.keys(mine)) {
        if (mine[kind] < 2 || mine[kind] >= 4) continue;
        for (const who of ['W', 'N', 'E']) {
          if ((theirs[who][kind] || 0) <= 0) continue;
          offered = pay(Math.min(total(), GOODS[kind] / 2)) || 'n';
          challenged = [who, kind];
          return `type=trade&opponent=${who}&goods=${kind}&money=${offered}`;
        }
      }
      return 'type=auction';
    }
    case 'auction': {
      const bid = worth(money.replace(/[^ntfhTF]/g, ''));
      if (!q.auctioneer) {  // we are the auctioneer and bidding is over: the right to buy
        return bid > 0 && bid <= GOODS[goods] * 0.6 && bid <= total() ? `money=${spell(bid)}` : '';
      }
      const next = bid + 10;
      return next <= GOODS[goods] / 2 && next <= total() ? `money=${spell(next)}` : '';
    }
    case 'trade':
      return '';  // no counter-offer: the trade is accepted
    case 'collect':
      if (/[A-J]/.test(goods)) {  // we lost a trade: the animals go to the opponent
        add(mine, goods, -1);
        if (theirs[q.opponent]) add(theirs[q.opponent], goods, +1);
        return '';
      }
      if (offered !== null && money === offered) {  // a trade: our offer goes as we wrote it
        add(cards, money, -1);
        offered = null;
        return '';
      }
      {  // after an auction: the cards that pay the price
        const cover = pay(worth(money));
        add(cards, cover, -1);
        return cover ? `money=${cover}` : '';
      }
    case 'receive':
      if (/[A-J]/.test(goods)) {
        add(mine, goods, +1);
        if (theirs[q.opponent]) add(theirs[q.opponent], goods, -1);  // won in a trade
      }
      add(cards, money.replace(/[^ntfhTF]/g, ''), +1);
      return '';
    case 'information': {
      if (q.message === 'opponent_goods_do_not_match' && challenged) theirs[challenged[0]][challenged[1]] = 0;
      if (q.message === 'bluffed' || !q.opponent || !goods) return '';
      const taken = goods.startsWith('-') ? -1 : +1;
      add(theirs[q.opponent] || {}, goods.replace('-', ''), taken);
      return '';
    }
    default:
      return '';
  }
}

const server = http.createServer((req, res) => {
  const query = new URL(req.url, 'http://localhost').searchParams;
  const q = Object.fromEntries(query.entries());
  res.setHeader('Content-Type', 'text/plain');
  const reply = answer(q);
  res.end(reply ? `?${reply}\n` : '\n');
});
server.listen(Number(process.argv[2] || process.env.ARBITER_PORT), '127.0.0.1');
