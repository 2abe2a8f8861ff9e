-- gamehost schema for PostgreSQL, version 7: as ../0007_weng_lin_scale.sql.
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
