-- gamehost schema: Diplomacy's Weng-Lin ratings move to the scale on which
-- a rating difference means the same expected score as in Glicko-2
-- (WENG_LIN_SCALE in crates/host/src/ratings.rs: 29.4806 Glicko points per
-- Weng-Lin mu point, was 42). The model's own mu and sigma are unchanged:
-- stored = 1500 + (mu - 25) * scale, deviation = sigma * scale.
-- Diplomacy is the one kind with more than two seats, so the only kind
-- rated by Weng-Lin.
UPDATE ratings
SET rating = 1500 + (rating - 1500) * (29.4806 / 42.0),
    deviation = deviation * (29.4806 / 42.0)
WHERE kind = 'diplomacy';

UPDATE game_results
SET rating_before = 1500 + (rating_before - 1500) * (29.4806 / 42.0),
    rating_after = 1500 + (rating_after - 1500) * (29.4806 / 42.0),
    deviation_after = deviation_after * (29.4806 / 42.0)
WHERE rating_before IS NOT NULL
  AND game_id IN (SELECT id FROM games WHERE kind = 'diplomacy');
